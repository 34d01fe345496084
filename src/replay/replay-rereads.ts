// Reads a session made again of content it had already read, unchanged. Without pi-fold an agent
// reads a file again when native compaction has summarized its earlier read away; with pi-fold that
// earlier read is still held: in the window, or folded with its exact bytes a search away. The tool's
// guidelines tell the agent to search before it rereads and then peek what the search points at, so
// the replay sends each such read as that recall: its result becomes what pi-fold's search for the
// file's path says at that point of the replay (the same request, a different result), and the
// search's first ready peek is run too, one request more (`followUps`: the characters of its call
// and result, which the replay bills as a request of its own). When no fold holds the read (the
// window still shows it) the result is a one-line note saying so, and no request more. The same
// replay with every read sent as recorded (an agent that needs the file's text again) is the figure
// beside it. A read counts when a file-read call (src/lattice reads.ts) with the same arguments
// returned the same text before and did not fail. Each read is its result message (never its call
// id: a scripted or faux model may reuse call ids, and a first read must not pass for a reread). A
// session that ran pi-fold is not sent this way: its agent had pi-fold's guidelines and read the file
// again all the same, so its reads go as recorded. Pure: the search and the peek run through the
// replay's own runtime.

import { readResults } from "../lattice/index.ts";
import type { DriveOptions, ReplayMessage } from "../simulate/index.ts";
import type { TranscriptMessage } from "../transcript/index.ts";

/** Matches a recall's search asks for, as the benchmark's agent asks at a revisit. */
const RECALL_SEARCH_LIMIT = 10;

/** The session's repeated, unchanged reads, and how the replay sent them. */
export interface HeldRereads {
	/** Read results the same call had returned before, with the same text. */
	readonly reads: number;
	/** Characters those results held in the session. */
	readonly chars: number;
	/** Of those, sent as pi-fold's search for the file (a fold held the earlier read), each with a peek request more. */
	readonly searched: number;
	/** Of those, sent as a note (no fold held the earlier read: the window still showed it). */
	readonly inView: number;
	/** Of those, sent as recorded: the session ran pi-fold (its agent read them again with pi-fold's guidelines), or the replay stopped before them. */
	readonly asRecorded: number;
	/** Whether the session ran pi-fold, so that every such read was sent as recorded. */
	readonly ranPiFold: boolean;
	/** The replay's total (requests and briefs) with every such read sent as recorded, or null when there were none. */
	readonly costAsRecorded: number | null;
}

/** The note a reread becomes when pi-fold's window still shows the earlier read. */
export function inViewNote(path: string): string {
	return `${path}: unchanged since its earlier read in this session, which the window still shows.`;
}

/** The session's repeated, unchanged reads: the path each read, by its result message, and what they held. */
export function findRereads(messages: readonly ReplayMessage[]): {
	paths: ReadonlyMap<ReplayMessage, string>;
	reads: number;
	chars: number;
} {
	// The text each call (its arguments) last returned.
	const seen = new Map<string, string>();
	const paths = new Map<ReplayMessage, string>();
	let chars = 0;
	for (const r of readResults(messages.map((m) => m.message))) {
		const key = JSON.stringify(r.args ?? {});
		if (seen.get(key) !== r.text) {
			seen.set(key, r.text);
			continue;
		}
		paths.set(messages[r.index] as ReplayMessage, r.shown.path);
		chars += r.text.length;
	}
	return { paths, reads: paths.size, chars };
}

/**
 * True when a search's text points at a read of `path` (a fold holds it). Whether the disk changed since
 * is not asked: the session's own reread returned the same text, and the replay has no disk.
 */
function showsRead(text: string, path: string): boolean {
	return text.split("\n").some((l) => l.trimStart().startsWith(`→ read ${path}:`));
}

/** The first ready peek call a search's text offers ("peek: {...}" under a match), or null. */
function readyPeek(text: string): Record<string, unknown> | null {
	const line = text.split("\n").find((l) => /^\s*peek: \{/.test(l));
	if (!line) return null;
	try {
		const args = JSON.parse(line.trim().slice("peek: ".length)) as unknown;
		return args && typeof args === "object" ? (args as Record<string, unknown>) : null;
	} catch {
		return null;
	}
}

/**
 * The drive hook that sends each reread in `paths` as the recall pi-fold's guidelines call for; the
 * counts of how it sent them, and the peek each searched one leads to (characters of call and result,
 * by the reread's result message).
 */
export function recallRereads(paths: ReadonlyMap<ReplayMessage, string>) {
	const sent = { searched: 0, inView: 0 };
	const followUps = new Map<ReplayMessage, { readonly call: number; readonly result: number }>();
	const resultFor: NonNullable<DriveOptions["resultFor"]> = async (_call, recorded, ask) => {
		const path = paths.get(recorded);
		if (path === undefined) return undefined;
		const found = await ask({ action: "search", pattern: path, limit: RECALL_SEARCH_LIMIT });
		const held = showsRead(found, path);
		if (held) sent.searched++;
		else sent.inView++;
		const peek = held ? readyPeek(found) : null;
		if (peek) followUps.set(recorded, { call: JSON.stringify(peek).length, result: (await ask(peek)).length });
		const text = held ? found : inViewNote(path);
		const note: TranscriptMessage = { ...recorded.message, content: [{ type: "text", text }] };
		return { ...recorded, message: note };
	};
	return { resultFor, sent, followUps };
}
