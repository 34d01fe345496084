// `pi-fold unfold`'s plan, without Pi and without the fold store: a session file rewritten so that
// every context edit pi-fold made is undone, and the session reads whole with pi-fold uninstalled.
// pi-fold's own edits are the `context_edit` runs right before each of its `commit` records (on the
// record's parent chain, in the record's order), found under any entry-type prefix (every
// `<prefix>:decision` custom type). They are removed, all but those that hide pi-fold's own commit
// receipts (`<prefix>:receipt` messages stay hidden, as they were), and an entry whose parent was
// removed hangs from the nearest entry kept, so every branch stays connected and the last entry (the one Pi opens)
// stays last. Written as a new session (`asNew`), the header gets its own id, time and the original as
// its parent session (as Pi's fork writes it), and a `session_info` entry after the last one names it
// unfolded: Pi lists it as a session of its own beside the original. Before anything is removed, each fold whose entries an edit covered is verified: its
// source is rebuilt from the file's own entries (the message each contributes to the context, as Pi
// converts it, serialized as the fold's source was: src/lattice `foldSource`) and must give the
// fold's recorded SHA-256 (its manifest's root, or the concatenated source's for a fold written before
// manifests); a fold that does not is refused by name, both digests given. Lines that
// are kept are kept byte for byte (a re-parented line is re-serialized with its keys in order). Pure
// over the text.

import { type FoldRecord, foldSource } from "../lattice/index.ts";
import { manifestDigestOf, sourceDigestMatches } from "../runtime/index.ts";
import type { TranscriptEntry, TranscriptMessage } from "../transcript/index.ts";
import { sha256Hex } from "../wasm/index.ts";
import { type FileEntry, parseSessionFile } from "./session-file.ts";

/** Why a session file cannot be unfolded (the message names what is wrong). */
export class UnfoldError extends Error {
	override name = "UnfoldError";
}

/** The new session the unfolded file is written as: its id, its creation time, and the original's path. */
export interface UnfoldAsNew {
	readonly id: string;
	readonly timestamp: string;
	readonly parentSession: string;
}

interface UnfoldPlan {
	/** The new session's name (its `session_info`), when written as a new session. */
	readonly name?: string;
	/** The session file with pi-fold's context edits undone. */
	readonly text: string;
	/** pi-fold's context edits removed. */
	readonly removed: number;
	/** pi-fold's edits kept: they hide its own commit receipts (pi-fold's messages, not the session's). */
	readonly keptReceiptEdits: number;
	/** Folds whose source was rebuilt from the file's entries and verified. */
	readonly verified: number;
	/** Entries hung from a new parent (the one before the removed run). */
	readonly reparented: number;
	/** The decision custom types found (one per entry-type prefix pi-fold ran with). */
	readonly decisionTypes: readonly string[];
}

type Raw = Record<string, unknown>;

/** The one context message an entry contributes, as Pi builds it (`sessionEntryToContextMessages`). */
export function contextMessageOf(raw: Raw): TranscriptMessage | undefined {
	if (raw.type === "message") {
		const message = raw.message as Raw;
		const role = message.role;
		if (role === "system") return undefined;
		if ((role === "user" || role === "assistant" || role === "toolResult") && message.content == null)
			return { ...message, content: [] } as unknown as TranscriptMessage;
		return message as unknown as TranscriptMessage;
	}
	if (raw.type === "custom_message")
		return {
			role: "custom",
			customType: raw.customType,
			content: raw.content ?? [],
			display: raw.display,
			details: raw.details,
			timestamp: new Date(raw.timestamp as string).getTime(),
		} as unknown as TranscriptMessage;
	if (raw.type === "branch_summary" && raw.summary)
		return {
			role: "branchSummary",
			summary: raw.summary,
			fromId: raw.fromId,
			timestamp: new Date(raw.timestamp as string).getTime(),
		} as unknown as TranscriptMessage;
	return undefined;
}

/** Every fold record the decision records name (fold, mark and merge records), by id. */
function foldsOf(entries: readonly FileEntry[], types: ReadonlySet<string>): Map<string, FoldRecord> {
	const folds = new Map<string, FoldRecord>();
	for (const e of entries) {
		if (e.type !== "custom" || !types.has(e.customType)) continue;
		const fold = (e.data as { fold?: unknown } | undefined)?.fold as Partial<FoldRecord> | undefined;
		if (
			fold &&
			typeof fold.id === "string" &&
			Array.isArray(fold.leafIds) &&
			typeof fold.sourceSha256 === "string" &&
			typeof fold.sourceBytes === "number"
		)
			folds.set(fold.id, fold as FoldRecord);
	}
	return folds;
}

/** pi-fold's own context edits: for each commit record, the edit run on its parent chain right before it. */
function ownEdits(entries: readonly FileEntry[], types: ReadonlySet<string>): Map<string, FileEntry> {
	const byId = new Map(entries.map((e) => [e.id, e]));
	const own = new Map<string, FileEntry>();
	for (const e of entries) {
		if (e.type !== "custom" || !types.has(e.customType)) continue;
		const data = e.data as { kind?: unknown; edits?: unknown } | undefined;
		if (data?.kind !== "commit" || !Array.isArray(data.edits) || data.edits.length === 0) continue;
		const targets = data.edits.map((edit) => String((edit as { targetId?: unknown }).targetId));
		const run: FileEntry[] = [];
		let at = e.parentId === null ? undefined : byId.get(e.parentId);
		while (at?.type === "context_edit" && run.length < targets.length) {
			run.unshift(at);
			at = at.parentId === null ? undefined : byId.get(at.parentId);
		}
		if (run.length !== targets.length) continue;
		if (run.every((edit, i) => edit.type === "context_edit" && edit.targetId === targets[i]))
			for (const edit of run) own.set(edit.id, edit);
	}
	return own;
}

/** Rebuilds `fold`'s source from the file's entries; throws naming the fold when it does not verify. */
function verifyFold(fold: FoldRecord, raws: ReadonlyMap<string, Raw>): void {
	const leaves: TranscriptEntry[] = [];
	for (const id of fold.leafIds) {
		const raw = raws.get(id);
		const message = raw ? contextMessageOf(raw) : undefined;
		if (!message)
			throw new UnfoldError(
				`fold ${fold.id}: its source cannot be verified: entry ${id} ${raw ? "contributes no message to the context" : "is not in the file"}`,
			);
		leaves.push({ id, message });
	}
	const bytes = new TextEncoder().encode(foldSource(leaves));
	const actual = sha256Hex(bytes);
	if (bytes.length !== fold.sourceBytes || !sourceDigestMatches(fold.id, leaves, fold.sourceSha256))
		throw new UnfoldError(
			`fold ${fold.id}: its source cannot be verified: the file's entries give sha256 ${manifestDigestOf(fold.id, leaves)} as a manifest, ${actual} as one blob (${bytes.length} bytes), the fold recorded sha256 ${fold.sourceSha256} (${fold.sourceBytes} bytes); an entry it holds was changed after it was folded`,
		);
}

/** A short first line of the branch's first user message, or undefined. */
function openingOf(file: ReturnType<typeof parseSessionFile>): string | undefined {
	for (const e of file.branch) {
		if (e.type !== "message" || e.message.role !== "user") continue;
		const content = e.message.content;
		const text =
			typeof content === "string"
				? content
				: Array.isArray(content)
					? content.map((b) => ((b as { type?: string }).type === "text" ? (b as { text: string }).text : "")).join(" ")
					: "";
		const line = text.replace(/\s+/g, " ").trim();
		if (line) return line.length <= 50 ? line : `${line.slice(0, 49)}…`;
	}
	return undefined;
}

/** The unfolded session's name: the original's (its latest `session_info`), else its opening, marked unfolded. */
function unfoldedName(file: ReturnType<typeof parseSessionFile>, raws: ReadonlyMap<string, Raw>): string {
	let name: string | undefined;
	for (const e of file.entries)
		if (raws.get(e.id)?.type === "session_info") {
			const n = raws.get(e.id)?.name;
			name = typeof n === "string" && n.trim() ? n.trim() : undefined;
		}
	return `${name ?? openingOf(file) ?? `session ${file.id.slice(0, 8)}`} (unfolded)`;
}

/** The entry id for the new `session_info`: eight hex digits not yet in the file. */
function freshEntryId(taken: ReadonlySet<string>, seed: string): string {
	for (let i = 0; ; i++) {
		const id = sha256Hex(new TextEncoder().encode(`${seed}:${i}`)).slice(0, 8);
		if (!taken.has(id)) return id;
	}
}

/**
 * Plans the unfold of a session file's text, as a new session when `asNew` is given (else the same
 * session, for replacing it in place); throws SessionFileError (bad file) or UnfoldError (a fold that does not verify).
 */
export function planUnfold(text: string, asNew?: UnfoldAsNew): UnfoldPlan {
	const file = parseSessionFile(text);
	const lines = text.split("\n");
	const types = new Set<string>();
	for (const e of file.entries) if (e.type === "custom" && e.customType.endsWith(":decision")) types.add(e.customType);
	const receipts = new Set(
		file.entries
			.filter(
				(e) =>
					e.type === "custom_message" &&
					e.customType.endsWith(":receipt") &&
					types.has(`${e.customType.slice(0, -":receipt".length)}:decision`),
			)
			.map((e) => e.id),
	);
	const own = ownEdits(file.entries, types);
	let keptReceiptEdits = 0;
	for (const [id, edit] of own)
		if (edit.type === "context_edit" && receipts.has(edit.targetId) && edit.replacement === null) {
			own.delete(id);
			keptReceiptEdits++;
		}
	const raws = new Map(file.entries.map((e) => [e.id, JSON.parse(lines[e.line - 1] as string) as Raw]));
	const targets = new Set([...own.values()].map((e) => (e.type === "context_edit" ? e.targetId : "")));
	const folds = [...foldsOf(file.entries, types).values()].filter((f) => f.leafIds.some((id) => targets.has(id)));
	for (const fold of folds) verifyFold(fold, raws);
	const byId = new Map(file.entries.map((e) => [e.id, e]));
	const keptParent = (id: string | null): string | null => {
		let at = id;
		while (at !== null && own.has(at)) at = byId.get(at)?.parentId ?? null;
		return at;
	};
	const out = [...lines];
	const dropped = new Set<number>();
	let reparented = 0;
	for (const e of file.entries) {
		if (own.has(e.id)) {
			dropped.add(e.line - 1);
			continue;
		}
		const parent = keptParent(e.parentId);
		if (parent === e.parentId) continue;
		// Spread keeps the keys in their order; parentId keeps its place.
		out[e.line - 1] = JSON.stringify({ ...(raws.get(e.id) as Raw), parentId: parent });
		reparented++;
	}
	const name = asNew ? unfoldedName(file, raws) : undefined;
	if (asNew) {
		const head = out.findIndex((l) => l.trim() !== "");
		const header = JSON.parse(out[head] as string) as Raw;
		out[head] = JSON.stringify({
			...header,
			id: asNew.id,
			timestamp: asNew.timestamp,
			parentSession: asNew.parentSession,
		});
		const kept = file.entries.filter((e) => !own.has(e.id));
		const info = {
			type: "session_info",
			id: freshEntryId(new Set(file.entries.map((e) => e.id)), asNew.id),
			parentId: kept.at(-1)?.id ?? null,
			timestamp: asNew.timestamp,
			name,
		};
		// After the last entry (a trailing newline stays last).
		const end = out.length > 0 && out.at(-1) === "" ? out.length - 1 : out.length;
		out.splice(end, 0, JSON.stringify(info));
	}
	return {
		...(name !== undefined ? { name } : {}),
		text: out.filter((_, i) => !dropped.has(i)).join("\n"),
		removed: own.size,
		keptReceiptEdits,
		verified: folds.length,
		reparented,
		decisionTypes: [...types],
	};
}
