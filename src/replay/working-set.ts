// What the agent's working set was, read from the recorded messages alone: the facts each reply used
// that it could only have taken from an earlier tool result (fidelity-facts.ts), and the user's own
// messages a later request should still carry. A fact counts for a reply when its first appearance
// in the session is an earlier tool result, no user message or system prompt holds it, and the
// latest earlier tool result holding it is at least FACT_MIN_AGE requests old, the reply's own
// request included (the newest results are in any window). Every message is searched once for every candidate (needle-index.ts), and each
// fact keeps the list of messages holding it, so a window's lookup (working-set-tally.ts) asks only
// whether one of those is in it unedited. Pure.

import type { TranscriptMessage } from "../transcript/index.ts";
import { factsIn, fullText, usedText, userOpening } from "./fidelity-facts.ts";
import { NeedleIndex } from "./needle-index.ts";

/**
 * Requests a fact's latest source result must have gone out with, the reply's own included, for the fact
 * to count (3: the result landed at least two requests before the reply's).
 */
export const FACT_MIN_AGE = 3;

export interface WorkingSetPlan {
	readonly index: NeedleIndex;
	/** By reply (its index among the replayed messages): the needles of the facts it used from earlier tool results. */
	readonly facts: ReadonlyMap<number, readonly number[]>;
	/** Per needle: the replayed messages whose whole text holds it, ascending. */
	readonly holders: readonly (readonly number[])[];
	/** The user's messages of 40+ characters, in order: where each is and the needle of its first 160 characters. */
	readonly users: readonly { readonly at: number; readonly needle: number }[];
	/** The replayed messages' count (the indices the holders and windows use). */
	readonly messages: number;
}

/**
 * The working set of `messages` (the replay's, in order). `isUser` says which are the user's own
 * messages (a session file's `user` messages, not a shell run or a branch summary sent as user text).
 */
export function planWorkingSet(
	messages: readonly { readonly message: TranscriptMessage }[],
	systemPrompt: string,
	isUser: (index: number) => boolean,
): WorkingSetPlan {
	const ids = new Map<string, number>();
	const needle = (text: string) => {
		const id = ids.get(text) ?? ids.size;
		ids.set(text, id);
		return id;
	};
	const candidates = new Map<number, number[]>();
	const users: { at: number; needle: number }[] = [];
	messages.forEach(({ message }, i) => {
		if (message.role === "assistant") {
			const facts = factsIn(usedText(message));
			if (facts.length > 0) candidates.set(i, facts.map(needle));
		}
		const opening = isUser(i) ? userOpening(message) : undefined;
		if (opening !== undefined) users.push({ at: i, needle: needle(opening) });
	});
	const index = new NeedleIndex([...ids.keys()]);
	const holders: number[][] = Array.from({ length: ids.size }, () => []);
	messages.forEach(({ message }, i) => {
		for (const id of index.find(fullText(message))) (holders[id] as number[]).push(i);
	});
	const inSystem = new Set(index.find(systemPrompt));
	// Requests before each message: a result first goes out with the request of the reply after it.
	const before: number[] = [];
	let replies = 0;
	for (const { message } of messages) {
		before.push(replies);
		if (message.role === "assistant") replies++;
	}
	const role = (i: number) => (messages[i] as { message: TranscriptMessage }).message.role;
	const facts = new Map<number, number[]>();
	for (const [at, ids] of candidates) {
		const kept = ids.filter((id) => {
			const held = holders[id] as number[];
			const first = held[0];
			if (first === undefined || first >= at || role(first) !== "toolResult" || inSystem.has(id)) return false;
			if (held.some((h) => role(h) === "user")) return false;
			let latest = -1;
			for (const h of held) if (h < at && role(h) === "toolResult") latest = h;
			// The requests that carried the result: from the one after it up to the reply's own.
			return (before[at] as number) - (before[latest] as number) + 1 >= FACT_MIN_AGE;
		});
		if (kept.length > 0) facts.set(at, kept);
	}
	return { index, facts, holders, users, messages: messages.length };
}
