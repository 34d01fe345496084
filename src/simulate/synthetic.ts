// Synthetic transcripts for the simulator: a seeded agent session of user prompts, assistant turns
// with parallel batches of read-only tool calls (sizes drawn per batch), occasional write calls and
// thinking blocks, results of a chosen size at chosen turns, the human's steps (`/fold-context`
// commands, a manual `/compact`) before chosen turns, and a closing reply per prompt. Deterministic
// from the seed; plain data.

import type { ReplayMessage } from "./driver.ts";
import type { HumanStep } from "./human-commands.ts";

/** The shape of a synthetic session. Every field has a default (see DEFAULT_SHAPE). */
interface SessionShape {
	readonly seed: number;
	/** User prompts (each opens an agent run). */
	readonly prompts: number;
	/** Assistant turns with tool calls per prompt. */
	readonly turnsPerPrompt: number;
	/** Largest parallel batch (1..n calls per turn). */
	readonly maxBatch: number;
	/** Characters of one tool result: drawn between min and max. */
	readonly resultChars: readonly [number, number];
	/** Share of turns that call a write tool (not read-only) instead of `read`. */
	readonly writeShare: number;
	/** Characters of a thinking block on an assistant turn (0: none). */
	readonly thinkingChars: number;
	/** Share of tool turns that carry the thinking block (default 1: every one). */
	readonly thinkingShare?: number;
	/** Names of the read-only and the write tool (default `read` and `write`). */
	readonly tools?: { readonly read: string; readonly write: string };
	/**
	 * Tool turns (numbered from 0 across prompts) whose first result has exactly `chars` characters;
	 * with `batch`, the turn is a parallel read of `batch` files whose every result has `chars`.
	 */
	readonly sized?: readonly { readonly turn: number; readonly chars: number; readonly batch?: number }[];
	/**
	 * The human's steps before tool turn `turn`: before the prompt when it is its prompt's first turn
	 * (the agent is idle), else between the turns of a run. Tool call ids are `call_<turn>_<k>`.
	 */
	readonly human?: readonly { readonly turn: number; readonly step: HumanStep }[];
}

const DEFAULT_SHAPE: SessionShape = {
	seed: 1,
	prompts: 3,
	turnsPerPrompt: 12,
	maxBatch: 3,
	resultChars: [2_000, 12_000],
	writeShare: 0.1,
	thinkingChars: 0,
};

/** xorshift32: small, fast, deterministic. */
function random(seed: number): () => number {
	let x = seed >>> 0 || 0x9e3779b9;
	return () => {
		x ^= x << 13;
		x >>>= 0;
		x ^= x >>> 17;
		x ^= x << 5;
		x >>>= 0;
		return x / 0x1_0000_0000;
	};
}

const WORDS = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau".split(
	" ",
);

function text(rand: () => number, chars: number, tag: string): string {
	const parts: string[] = [tag];
	let length = tag.length;
	while (length < chars) {
		const word = WORDS[Math.floor(rand() * WORDS.length)] as string;
		parts.push(word);
		length += word.length + 1;
	}
	return parts.join(" ").slice(0, Math.max(chars, tag.length));
}

/** One assistant turn with its calls and their results. */
function turn(rand: () => number, shape: SessionShape, n: number): ReplayMessage[] {
	const sizedTurn = shape.sized?.find((s) => s.turn === n);
	const drawnWrite = rand() < shape.writeShare;
	const write = drawnWrite && sizedTurn?.batch === undefined;
	// The draws stay those of a turn without `batch`, so every other turn of a seed is unchanged.
	const drawnBatch = drawnWrite ? 1 : 1 + Math.floor(rand() * shape.maxBatch);
	const batch = sizedTurn?.batch ?? drawnBatch;
	const tools = shape.tools ?? { read: "read", write: "write" };
	const calls = Array.from({ length: batch }, (_, k) => ({
		type: "toolCall",
		id: `call_${n}_${k}`,
		name: write ? tools.write : tools.read,
		arguments: { path: `src/file-${n}-${k}.ts` },
	}));
	const thinks = shape.thinkingChars > 0 && (shape.thinkingShare === undefined || rand() < shape.thinkingShare);
	const thinking = thinks ? [{ type: "thinking", thinking: text(rand, shape.thinkingChars, `think ${n}`) }] : [];
	const assistant: ReplayMessage = {
		message: {
			role: "assistant",
			content: [...thinking, { type: "text", text: `step ${n}` }, ...calls],
			stopReason: "toolUse",
		},
	};
	const [lo, hi] = shape.resultChars;
	const sized = sizedTurn?.chars;
	const results = calls.map((c, k): ReplayMessage => {
		const drawn = Math.round(lo + rand() * (hi - lo));
		const chars = sized !== undefined && (k === 0 || sizedTurn?.batch !== undefined) ? sized : drawn;
		return {
			message: {
				role: "toolResult",
				toolCallId: c.id,
				toolName: c.name,
				content: [{ type: "text", text: text(rand, chars, `${c.name} ${c.arguments.path}`) }],
				isError: false,
			},
		};
	});
	return [assistant, ...results];
}

/** `item` with the human's steps before tool turn `n`, if any. */
function withSteps(item: ReplayMessage, shape: SessionShape, n: number): ReplayMessage {
	const steps = (shape.human ?? []).filter((h) => h.turn === n).map((h) => h.step);
	return steps.length > 0 ? { ...item, before: steps } : item;
}

/** A whole synthetic session: `prompts` agent runs of `turnsPerPrompt` tool turns and a closing reply each. */
export function syntheticSession(partial: Partial<SessionShape> = {}): ReplayMessage[] {
	const shape = { ...DEFAULT_SHAPE, ...partial };
	const rand = random(shape.seed);
	const out: ReplayMessage[] = [];
	let n = 0;
	for (let p = 0; p < shape.prompts; p++) {
		const prompt: ReplayMessage = { message: { role: "user", content: `task ${p + 1}: ${text(rand, 200, "please")}` } };
		out.push(withSteps(prompt, shape, n));
		for (let t = 0; t < shape.turnsPerPrompt; t++) {
			const [assistant, ...results] = turn(rand, shape, n);
			out.push(t === 0 ? (assistant as ReplayMessage) : withSteps(assistant as ReplayMessage, shape, n), ...results);
			n++;
		}
		out.push({
			message: { role: "assistant", content: [{ type: "text", text: `done with task ${p + 1}` }], stopReason: "stop" },
		});
	}
	return out;
}
