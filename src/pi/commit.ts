// Plans a commit: the `context_edit` drafts that bring the window in line with the fold state, and
// the chained `commit` decision that records them. Placeholders replace a collapsed fold's first
// leaf and omit the rest; restores put back original content read from the VERIFIED fold store
// (a source that fails verification keeps its fold collapsed and is listed as refused). Every draft
// targets an entry on the active branch, or nothing is proposed. Async only for verified reads.

import type { FoldRecord } from "../lattice/index.ts";
import { parseFoldSource } from "../lattice/index.ts";
import {
	editsToCommit,
	type ImpliedEdit,
	impliedEdits,
	type Replacement,
	renderPlaceholder,
} from "../projection/index.ts";
import type { Actor, DecisionBody } from "../state/index.ts";
import type { TranscriptEntry } from "../transcript/index.ts";
import type { SourceStore } from "./ports.ts";
import type { Snapshot } from "./snapshot.ts";

export interface ContextEditDraft {
	readonly type: "context_edit";
	readonly targetId: string;
	readonly replacement: Replacement;
}

export interface CommitPlan {
	/** Folds kept collapsed (or entries left as they were) because their source failed verification. */
	readonly refused: readonly { foldId: string; reason: string }[];
	/** Null when the window already matches the state. */
	readonly commit: CommitProposal | null;
}

export interface CommitProposal {
	readonly drafts: ContextEditDraft[];
	readonly body: Extract<DecisionBody, { kind: "commit" }>;
	readonly edits: readonly ImpliedEdit[];
}

export interface CommitNames {
	readonly brandNoun: string;
	readonly toolName: string;
}

/** Content of a brief replacement in the form Pi stores it, so an unchanged brief compares equal. */
function briefContent(message: TranscriptEntry["message"] | undefined, text: string): unknown {
	return message?.role === "assistant" || message?.role === "toolResult" ? [{ type: "text", text }] : text;
}

function sameContent(a: Replacement | undefined, content: unknown): boolean {
	return a !== undefined && a !== null && JSON.stringify(a.content) === JSON.stringify(content);
}

/** The smallest known fold whose leaves include `target`: the cheapest verified source for it. */
function sourceFoldFor(target: string, known: ReadonlyMap<string, FoldRecord>): FoldRecord | undefined {
	let best: FoldRecord | undefined;
	for (const fold of known.values()) {
		if (fold.leafIds.includes(target) && (!best || fold.leafIds.length < best.leafIds.length)) best = fold;
	}
	return best;
}

/**
 * Plans the commit that brings the window in line with `snap` (`commit` null when nothing differs).
 * `reason` and `actor` go into the commit record.
 */
export async function planEdits(
	snap: Snapshot,
	store: SourceStore,
	names: CommitNames,
	reason: string,
	actor: Actor,
): Promise<CommitPlan> {
	const { view, lattice } = snap;
	const messages = new Map(view.transcript.map((e) => [e.id, e.message]));
	const managed = new Map<string, string>();
	for (const target of view.managed) {
		if (view.foreign.has(target)) continue;
		managed.set(target, sourceFoldFor(target, snap.known)?.id ?? "");
	}
	const expanded = new Set(snap.state.expanded);
	const refused: { foldId: string; reason: string }[] = [];
	const originals = new Map<string, unknown>();
	const badSources = new Set<string>();
	const sources = new Map<string, Map<string, unknown> | Error>();
	const skipRestore = new Set<string>();
	for (let round = 0; round < 64; round++) {
		let failed = false;
		for (const item of lattice.visible(expanded)) {
			if (item.type !== "entry" || !managed.has(item.id) || skipRestore.has(item.id)) continue;
			const raw = messages.get(item.id)?.content;
			if (sameContent(view.inForce.get(item.id), raw) || !view.inForce.has(item.id)) {
				originals.set(item.id, raw);
				continue;
			}
			if (originals.has(item.id)) continue;
			const fold = snap.known.get(managed.get(item.id) ?? "");
			let source = fold ? sources.get(fold.sourceSha256) : new Error(`no fold source holds entry ${item.id}`);
			if (fold && source === undefined) {
				try {
					const parsed = parseFoldSource(await store.read(fold.sourceSha256, `fold ${fold.id}`, fold.sourceBytes));
					source = new Map(parsed.map((e) => [e.id, e.message.content]));
				} catch (error) {
					source = error instanceof Error ? error : new Error(String(error));
				}
				sources.set(fold.sourceSha256, source);
			}
			if (source instanceof Map && source.has(item.id)) {
				originals.set(item.id, source.get(item.id));
				continue;
			}
			// Unverifiable: keep every expanded fold around this entry collapsed (pairing stays whole).
			failed = true;
			const why = source instanceof Error ? source.message : `its source does not hold entry ${item.id}`;
			const around = lattice.innermostAt(lattice.position.get(item.id) ?? -1);
			const chain = around ? [around, ...lattice.ancestors(around.record.id)] : [];
			const opened = chain.filter((f) => expanded.has(f.record.id));
			if (opened.length === 0) {
				skipRestore.add(item.id);
				if (fold && !badSources.has(fold.id)) refused.push({ foldId: fold.id, reason: why });
				if (fold) badSources.add(fold.id);
				continue;
			}
			for (const f of opened) {
				expanded.delete(f.record.id);
				if (!badSources.has(f.record.id)) refused.push({ foldId: f.record.id, reason: why });
				badSources.add(f.record.id);
			}
		}
		if (!failed) break;
	}
	const implied = impliedEdits({
		lattice,
		expanded,
		placeholder: (id) => {
			const fold = lattice.get(id)?.record as FoldRecord;
			return briefContent(messages.get(fold.leafIds[0] ?? ""), renderPlaceholder(fold, names)) as string;
		},
		managed: new Map([...managed].filter(([target]) => !skipRestore.has(target))),
		original: (target) => originals.get(target),
	}).filter((edit) => !view.foreign.has(edit.targetId));
	const toCommit = editsToCommit(implied, view.inForce);
	if (toCommit.length === 0) return { refused, commit: null };
	const ids = new Set(view.transcript.map((e) => e.id));
	const stray = toCommit.find((edit) => !ids.has(edit.targetId));
	if (stray) throw new Error(`commit refused: target ${stray.targetId} is not on the active branch`);
	const applied = [...new Set(toCommit.filter((e) => e.action === "brief").map((e) => e.foldId as string))];
	const commit: CommitProposal = {
		drafts: toCommit.map((edit) => ({ type: "context_edit", targetId: edit.targetId, replacement: edit.replacement })),
		edits: toCommit,
		body: {
			kind: "commit",
			actor,
			seq: snap.state.commitSeq + 1,
			reason,
			applied,
			agentMarks: [],
			topUpMarks: [],
			refused,
			edits: toCommit.map((edit) => ({ targetId: edit.targetId, action: edit.action })),
		},
	};
	return { refused, commit };
}
