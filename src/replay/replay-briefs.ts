// The briefs a replay's options would have the model write, metered instead of requested: each is
// the request pi-fold's summarizer would send (its system prompt and the span as the window shows
// it, bounded as the summarizer bounds it), answered with the built-in brief so the replay stays
// offline. The bill prices every such request at the session's prices with no cache (a brief
// request shares no prefix with the session's), its input in the session's tokens (the replay's
// calibration) and its output the brief's length. Pure in-memory.

import { deterministicBrief, type SummaryCall, summarizeSpan } from "../briefs/index.ts";
import type { BriefedKind } from "../lattice/index.ts";
import type { BriefOut } from "../runtime/index.ts";
import type { TranscriptEntry } from "../transcript/index.ts";
import type { Prices } from "./recorded-session.ts";

/** Characters per token of the simulator's count (the calibration puts it in the session's tokens). */
const CHARS_PER_TOKEN = 4;

/** What the metered brief requests add up to. */
export interface BriefBill {
	readonly calls: number;
	readonly input: number;
	readonly output: number;
	readonly cost: number;
}

export class BriefMeter {
	private calls = 0;
	private inputChars = 0;
	private outputChars = 0;

	/** The host's `writeBrief`: meters the request the summarizer would send, answers with the built-in brief. */
	writer(): (
		leaves: readonly TranscriptEntry[],
		kind: BriefedKind,
		shown?: readonly TranscriptEntry[],
	) => Promise<BriefOut> {
		return async (leaves, _kind, shown) => {
			// The built-in brief is the answer: summarizeSpan renders and bounds the request as a live one.
			const answered = deterministicBrief(leaves);
			const call: SummaryCall = async (request) => {
				this.calls++;
				this.inputChars += request.system.length + request.prompt.length;
				return { text: answered, provider: "replay", model: "the session model", toolCalls: 0 };
			};
			const out = await summarizeSpan(leaves, call, { source: "model", shown });
			this.outputChars += out.brief.length;
			return { brief: out.brief, source: out.provenance.source };
		};
	}

	/** The bill in the session's tokens (`calibration`) at `prices`, every input token fresh. */
	bill(calibration: number, prices: Prices): BriefBill {
		const input = (this.inputChars / CHARS_PER_TOKEN) * calibration;
		const output = this.outputChars / CHARS_PER_TOKEN;
		return { calls: this.calls, input, output, cost: (input * prices.input + output * prices.output) / 1_000_000 };
	}
}
