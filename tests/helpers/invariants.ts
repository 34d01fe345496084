// Test helper: the invariants every session must keep, checked the same way on the simulator and on
// real Pi. Per request: no orphaned tool result and no unanswered tool call (a call's results follow
// it before the next assistant or user message); between requests: the window changes only at a
// move (a commit or a native compaction), otherwise the request is the previous one plus appended
// messages. At the end: every fold pi-fold holds is peekable, and its stored source is the exact
// bytes of its entries on the branch. No Pi here: callers hand in plain messages and entries.

import { foldSource } from "../../src/lattice/index.ts";
import { callTool, type FoldRuntime, type Host } from "../../src/runtime/index.ts";
import type { TranscriptEntry, TranscriptMessage } from "../../src/transcript/index.ts";

type Msg = { role?: string; content?: unknown; toolCallId?: unknown };

/** Tool-call pairing problems in one request's messages (empty: every call answered, every result called). */
export function pairingProblems(messages: readonly unknown[]): string[] {
	const problems: string[] = [];
	let pending = new Set<string>();
	const close = () => {
		for (const id of pending) problems.push(`call ${id} has no result`);
		pending = new Set();
	};
	for (const raw of messages) {
		const m = raw as Msg;
		if (m.role === "assistant") {
			close();
			for (const b of Array.isArray(m.content) ? (m.content as { type?: string; id?: string }[]) : [])
				if (b.type === "toolCall") pending.add(String(b.id));
		} else if (m.role === "toolResult") {
			const id = String(m.toolCallId);
			if (pending.has(id)) pending.delete(id);
			else problems.push(`result ${id} has no call`);
		} else if (m.role !== "system") close();
	}
	close();
	return problems;
}

/**
 * Watches consecutive requests: a request that is not the previous one plus appended messages must
 * follow a move (the count of commits and compactions grew). Messages compare by identity, then by
 * their JSON, so a window of a million tokens costs one pass per request.
 */
export class WindowWatch {
	private previous: readonly unknown[] | null = null;
	private previousJson: (string | undefined)[] = [];
	private moves = -1;
	readonly problems: string[] = [];
	rewrites = 0;

	/** Request `at` with `messages`, after `moves` commits and compactions on the branch. */
	request(at: number, messages: readonly unknown[], moves: number): void {
		const prev = this.previous;
		const json: (string | undefined)[] = [];
		if (prev && !this.isAppend(prev, messages, json)) {
			this.rewrites++;
			if (moves === this.moves) this.problems.push(`request ${at} rewrote the window with no commit or compaction`);
		}
		this.previous = messages;
		this.previousJson = json;
		this.moves = moves;
	}

	private isAppend(prev: readonly unknown[], next: readonly unknown[], json: (string | undefined)[]): boolean {
		if (next.length < prev.length) return false;
		for (let i = 0; i < prev.length; i++) {
			if (prev[i] === next[i]) continue;
			const a = this.previousJson[i] ?? JSON.stringify(prev[i]);
			const b = JSON.stringify(next[i]);
			json[i] = b;
			if (a !== b) return false;
		}
		return true;
	}
}

/**
 * Every fold the runtime holds (in force or pending) is peekable through the runtime, and its stored
 * source equals `foldSource` over its leaves as the branch holds them (`byId`: the original message
 * of every entry on the branch, compacted ones included).
 */
export async function foldProblems(
	runtime: FoldRuntime,
	host: Host,
	byId: ReadonlyMap<string, TranscriptMessage>,
): Promise<{ problems: string[]; folds: number }> {
	const problems: string[] = [];
	const state = runtime.snapshot(host).state;
	const folds = [...state.folds.values(), ...[...state.pendingMarks.values()].map((m) => m.fold)];
	const store = runtime.store(host);
	for (const fold of folds) {
		const peek = await callTool(runtime, host, { action: "peek", id: fold.id, bytes: 64 }, "human");
		if (peek.isError) problems.push(`fold ${fold.id} does not peek: ${peek.text}`);
		const leaves: TranscriptEntry[] = [];
		for (const id of fold.leafIds) {
			const message = byId.get(id);
			if (message) leaves.push({ id, message });
			else problems.push(`fold ${fold.id}: leaf ${id} is not on the branch`);
		}
		const stored = await store.read(fold.sourceSha256, fold.id).catch((e: Error) => `unreadable: ${e.message}`);
		if (stored !== foldSource(leaves)) problems.push(`fold ${fold.id}: the stored source is not its entries' bytes`);
	}
	return { problems, folds: folds.length };
}
