// The window edits a fold state implies, and the difference against the edits already in force on
// the branch: the drafts a commit returns. A collapsed fold's first leaf shows its placeholder and
// its other leaves are omitted; an entry pi-fold edited before and that is visible again is
// restored to its original content. Pure: the caller supplies originals (read from the verified
// fold store) and the edits in force (read from the branch).

import type { Lattice } from "../lattice/index.ts";

/** Pi's `context_edit` replacement: null omits the target, otherwise its content is swapped. */
export type Replacement = { readonly content: unknown } | null;

/** One edit the state implies for a target entry. */
export interface ImpliedEdit {
	readonly targetId: string;
	readonly action: "brief" | "omit" | "restore";
	readonly replacement: Replacement;
	/** The fold the edit belongs to (restores: the fold that was expanded or dissolved). */
	readonly foldId: string | null;
}

interface ImpliedEditsInput {
	readonly lattice: Lattice;
	/** Folds shown expanded (their children are visible). */
	readonly expanded: ReadonlySet<string>;
	/** Placeholder text of a collapsed fold. */
	readonly placeholder: (foldId: string) => string;
	/** Targets pi-fold has edited before on this branch, with the fold that edited them. */
	readonly managed: ReadonlyMap<string, string>;
	/** Original content of a managed target (verified); called only for visible managed entries. */
	readonly original: (targetId: string) => unknown;
}

/** Every edit the state implies, in transcript order. */
export function impliedEdits(input: ImpliedEditsInput): ImpliedEdit[] {
	const out: ImpliedEdit[] = [];
	for (const item of input.lattice.visible(input.expanded)) {
		if (item.type === "fold") {
			const fold = input.lattice.get(item.id);
			if (!fold) continue;
			const [first, ...rest] = fold.record.leafIds;
			if (first === undefined) continue;
			out.push({
				targetId: first,
				action: "brief",
				replacement: { content: input.placeholder(item.id) },
				foldId: item.id,
			});
			for (const id of rest) out.push({ targetId: id, action: "omit", replacement: null, foldId: item.id });
			continue;
		}
		const foldId = input.managed.get(item.id);
		if (foldId !== undefined) {
			out.push({ targetId: item.id, action: "restore", replacement: { content: input.original(item.id) }, foldId });
		}
	}
	return out;
}

function sameReplacement(a: Replacement | undefined, b: Replacement): boolean {
	if (a === undefined) return false;
	if (a === null || b === null) return a === b;
	return JSON.stringify(a.content) === JSON.stringify(b.content);
}

/**
 * The implied edits that differ from what is in force. `inForce` maps a target to the latest
 * edit on the branch (absent: never edited). A restore of a target with no edit in force is a
 * no-op and is dropped; a brief or omission already in force is dropped.
 */
export function editsToCommit(
	implied: readonly ImpliedEdit[],
	inForce: ReadonlyMap<string, Replacement>,
): ImpliedEdit[] {
	return implied.filter((edit) => {
		const current = inForce.get(edit.targetId);
		if (edit.action === "restore" && current === undefined) return false;
		return !sameReplacement(current, edit.replacement);
	});
}
