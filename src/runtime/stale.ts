// Stale reads: a folded file read whose file on disk no longer holds the text the read returned.
// Fold records list their reads (path, digest of the text, lines shown; src/lattice reads.ts); this
// module gathers them for a fold and its descendants, resolves each path against the host's
// working directory, and asks the runtime's FileChecker (src/store), which stats each file and
// re-reads it only when its stat changed. Checked lazily, only when status, search or peek asks;
// never per request. The checker does the file I/O.

import type { FileRead, FoldRecord, PlacedFold } from "../lattice/index.ts";
import type { Snapshot } from "../policy/index.ts";
import { FileChecker, type FileState, resolveReadPath } from "../store/index.ts";
import type { Host } from "./ports.ts";

/** Distinct files checked in one call at most (the rest are not reported as stale). */
const STALE_CHECK_MAX_FILES = 512;
/** Stale reads status lists by name. */
const STALE_LISTED = 10;

/** A read and the fold that recorded it. */
interface HeldRead {
	readonly read: FileRead;
	readonly fold: string;
}

const checkers = new WeakMap<object, FileChecker>();

/** The file checker of a runtime (one per runtime, so its stat cache lives as long as the session). */
export function checkerFor(owner: object): FileChecker {
	let checker = checkers.get(owner);
	if (!checker) {
		checker = new FileChecker();
		checkers.set(owner, checker);
	}
	return checker;
}

/** Reads recorded by the folds within `roots` (each root and every fold nested in it), by result entry. */
export function readsUnder(snap: Snapshot, roots: readonly PlacedFold[]): Map<string, HeldRead> {
	const out = new Map<string, HeldRead>();
	for (const fold of snap.lattice.inOrder()) {
		if (!roots.some((r) => r.start <= fold.start && fold.end <= r.end)) continue;
		for (const read of fold.record.reads ?? [])
			if (!out.has(read.entry)) out.set(read.entry, { read, fold: fold.record.id });
	}
	return out;
}

/** Which of `reads` no longer match the disk (changed or gone), by result entry. */
export function staleOf(owner: object, host: Pick<Host, "cwd">, reads: Iterable<HeldRead>): Map<string, FileState> {
	const checker = checkerFor(owner);
	const cwd = host.cwd();
	const out = new Map<string, FileState>();
	const files = new Set<string>();
	for (const { read } of reads) {
		const path = resolveReadPath(read.path, cwd);
		if (!files.has(path) && files.size >= STALE_CHECK_MAX_FILES) continue;
		files.add(path);
		const state = checker.check(path, read);
		if (state === "changed" || state === "gone") out.set(read.entry, state);
	}
	return out;
}

/** What a result says about a stale read. */
export function staleNote(state: FileState | undefined): string | null {
	if (state === "changed") return "stale: changed on disk since this read";
	if (state === "gone") return "stale: gone from disk since this read";
	return null;
}

/** Status lines about every folded read on the branch that no longer matches the disk. */
export function staleStatus(owner: object, host: Pick<Host, "cwd">, snap: Snapshot) {
	const roots = snap.lattice.roots.map((id) => snap.lattice.get(id) as PlacedFold);
	const held = readsUnder(snap, roots);
	const stale = staleOf(owner, host, held.values());
	const list = [...stale].map(([entry, state]) => ({ ...(held.get(entry) as HeldRead), state }));
	const lines =
		list.length === 0
			? []
			: [
					`Stale reads: ${list.length} of ${held.size} folded file reads no longer match the disk (${staleNote("changed")}):`,
					...list
						.slice(0, STALE_LISTED)
						.map((s) => `  ${s.read.path} · ${s.state} · fold ${s.fold} · entry ${s.read.entry}`),
					...(list.length > STALE_LISTED ? [`  and ${list.length - STALE_LISTED} more`] : []),
				];
	return {
		lines,
		details: {
			reads: held.size,
			stale: list.slice(0, 50).map((s) => ({ path: s.read.path, state: s.state, fold: s.fold, entry: s.read.entry })),
		},
	};
}

/** Stale reads of a fold record (and, when it is placed, the folds nested in it), by result entry. */
export function staleInFold(owner: object, host: Pick<Host, "cwd">, snap: Snapshot, record: FoldRecord) {
	const placed = snap.lattice.get(record.id);
	const held = placed
		? readsUnder(snap, [placed])
		: new Map((record.reads ?? []).map((read) => [read.entry, { read, fold: record.id }] as const));
	const stale = staleOf(owner, host, held.values());
	return [...stale].map(([entry, state]) => ({ ...(held.get(entry) as HeldRead), state }));
}

/**
 * Entries of `leafIds` whose JSON lines overlap bytes [start, end) of the fold's source, from the
 * branch's messages (each line is JSON.stringify({id, message}) and a newline, as foldSource writes it).
 */
export function entriesOverlapping(
	snap: Snapshot,
	leafIds: readonly string[],
	start: number,
	end: number,
): Set<string> {
	const out = new Set<string>();
	let at = 0;
	for (const id of leafIds) {
		if (at >= end) break;
		const index = snap.lattice.position.get(id);
		const message = index === undefined ? undefined : snap.view.transcript[index]?.message;
		if (!message) break;
		const next = at + Buffer.byteLength(JSON.stringify({ id, message })) + 1;
		if (next > start) out.add(id);
		at = next;
	}
	return out;
}
