// What a replay takes and gives (replay-session.ts): its options and defaults, one request's window
// as pi-fold sent it, and the result with both sides' figures. Types and two constants.

import type { PiFoldOptions, ResolvedOptions } from "../options/index.ts";
import type { ReservationSource } from "../policy/index.ts";
import type { TranscriptMessage } from "../transcript/index.ts";
import type { Fidelity } from "./fidelity.ts";
import type { NativeFigures, Prices } from "./recorded-session.ts";
import type { EstimatedRequest } from "./replay-bills.ts";
import type { BriefBill } from "./replay-briefs.ts";
import type { Calibration } from "./replay-calibration.ts";
import type { HeldRereads } from "./replay-rereads.ts";

/** Output tokens reserved per request when the caller does not say (Pi's default reserve). */
export const DEFAULT_MAX_OUTPUT = 16_384;
/** Prefix cache lifetime when the caller does not say: five minutes, the common provider default. */
export const DEFAULT_CACHE_TTL_MS = 5 * 60_000;

export interface ReplayOptions {
	/** The model's context window in tokens (a session file does not record it). */
	readonly window: number;
	/** Output tokens each request reserves (default DEFAULT_MAX_OUTPUT). */
	readonly maxOutput?: number;
	/** Dollars per million tokens (default: what the file's own costs imply). */
	readonly prices?: Prices;
	/** Prefix cache lifetime in ms (default DEFAULT_CACHE_TTL_MS). */
	readonly cacheTtlMs?: number;
	/** pi-fold's foldScheduling (default: the options', else pi-fold's own default). */
	readonly scheduling?: ResolvedOptions["foldScheduling"];
	/** pi-fold's options for the replay (a settings file's), over the replay's own (deterministic briefs). */
	readonly options?: PiFoldOptions;
	/** Where the window and the output reserve came from, in the report's words (default: given). */
	readonly limitsFrom?: { readonly window: string; readonly maxOutput: string };
	/** Called with each request pi-fold's window sends, in order (`pi-fold replay --requests`). */
	readonly onWindow?: (window: ReplayWindow) => void;
}

/** One request of the pi-fold replay as its window sends it. */
export interface ReplayWindow {
	/** 1-based, in the order sent (a recall's peek, billed apart, is not one). */
	readonly request: number;
	/** The reply it produced (1-based, as in the session). */
	readonly reply: number;
	/** Its estimated prompt, in the session's tokens. */
	readonly tokens: number;
	/** The messages sent: the system prompt (when there is one), then the conversation. */
	readonly messages: readonly TranscriptMessage[];
}

interface PiFoldFigures {
	readonly requests: readonly EstimatedRequest[];
	readonly prompt: number;
	readonly fresh: number;
	readonly cacheRead: number;
	readonly output: number;
	readonly cost: number;
	readonly peak: number;
	readonly folds: number;
	readonly agentFolds: number;
	readonly commits: number;
	/** Entries inside a fold (their exact bytes in the fold store, SHA-256 addressed). */
	readonly foldedEntries: number;
	readonly foldedBytes: number;
	/** The briefs the options would have the model write: their requests and what they cost. */
	readonly briefs: BriefBill;
	/** The session's repeated, unchanged reads (replay-rereads.ts): how they were sent, and the total sent as recorded. */
	readonly heldRereads: HeldRereads;
	/** Replies (1-based) whose request the estimate puts over the model's window: a live session would have overflowed. */
	readonly overflows: readonly number[];
	/** Why the replay stopped early (pi-fold's fence), or null. */
	readonly stopped: string | null;
	readonly problems: readonly string[];
	/** The agent's context-tool calls the replay's pi-fold answered in other words than the session's. */
	readonly divergences: readonly { readonly callId: string; readonly recorded: string; readonly replayed: string }[];
}

export interface ReplayResult {
	readonly sessionId: string;
	readonly version: number;
	readonly model: string | undefined;
	/** pi-fold ran in the session as recorded (its decision records are on the branch). */
	readonly ranPiFold: boolean;
	/** Replayed with built-in briefs because the session's own folds had no model-written one (ran-settings.ts). */
	readonly ranBuiltInBriefs: boolean;
	readonly window: number;
	/** Output tokens each request reserved, and where that and the window came from. */
	readonly maxOutput: number;
	/** The model's output cap the replay ran with (--max-output, the catalog's, else Pi's reserve). */
	readonly outputCap: number;
	/** Why the reservation is what it is: the room Pi keeps for a reply, or the smaller output cap. */
	readonly reservationFrom: ReservationSource;
	readonly windowFrom: string;
	readonly maxOutputFrom: string;
	readonly budget: number;
	readonly prices: Prices;
	readonly pricesFrom: "the file's own costs" | "the prices given";
	readonly messages: number;
	readonly native: NativeFigures;
	/**
	 * The session's cost, its requests' and its summary requests': the file's own, or (a file that
	 * records no cost) its exact tokens at `prices`.
	 */
	readonly recordedCost: {
		readonly dollars: number;
		readonly summaries: number;
		readonly from: "the file" | "the prices";
	};
	/** From the simulator's count of a request to the session's tokens, fitted on the session as it ran. */
	readonly calibration: Calibration;
	/** The session as it ran, estimated the way pi-fold's replay is: the baseline pi-fold is compared with, and the estimator's check. */
	readonly check: AsRanEstimate;
	readonly pifold: PiFoldFigures;
	/** How pi-fold's windows and the session's as it ran held the agent's working set; the recalls (fidelity.ts). */
	readonly fidelity: Fidelity;
}

/** The session as it ran, estimated the way pi-fold's replay is, in the session's tokens and dollars. */
export interface AsRanEstimate {
	readonly requests: number;
	readonly prompt: number;
	readonly cacheRead: number;
	readonly fresh: number;
	readonly output: number;
	/** The requests' dollars (summary requests not included: they are the file's own, as recorded). */
	readonly cost: number;
	readonly peak: number;
}

/** The simulated model: its window and the output it reserves. */
