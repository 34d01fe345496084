// The actions that change how existing folds show, or what may fold: expand (outside-in, one level,
// when what it restores fits the window (admission.ts), after verifying the source), refold, protect/unprotect, rebrief, and unmark (epoch only: withdraws a
// pending mark). Each records one decision; the window changes at the next commit. The fold store
// does the verified read (expand requires the source to be the fold's own: bound-source.ts; with no
// blob stored, the session's entries rebuilt and verified); the runtime appends the record.

import { briefProblem } from "../../briefs/index.ts";
import { plural } from "../../common/index.ts";
import { resolveId } from "../../policy/index.ts";
import { readBoundSourceFrom, type SourceOrigin } from "../bound-source.ts";
import { expandRefusal } from "./admission.ts";
import { type ActionResult, askFor, type DecidingInput, landing, refuse } from "./shared.ts";
import { sourceRefusal } from "./source-failure.ts";

export async function expandAction(input: DecidingInput, args: { id: string }): Promise<ActionResult> {
	const snap = input.runtime.snapshot(input.host);
	const fold = snap.lattice.get(args.id);
	if (!fold) {
		const why = snap.unplaced.find((u) => u.id === args.id)?.reason;
		if (!why && snap.state.pendingMarks.has(args.id))
			return refuse(
				"expand",
				`${args.id} is marked to fold, not folded yet: the window still shows it whole, so there is nothing to expand. To keep it from folding: ${askFor(input, "unmark", args.id)}`,
				{ id: args.id, pending: true },
			);
		if (!why) return refuse("expand", `no fold ${args.id} on this branch`);
		// Its source is stored whole, whatever happened to the entries (a native compaction summarized them).
		const peek = askFor(input, "peek", args.id);
		const inContext = new Set(snap.view.transcript.map((e) => e.id));
		const byPi = snap.state.folds.get(args.id)?.leafIds.some((id) => !inContext.has(id))
			? "Pi's native compaction summarized its entries, so there is no place to restore it; "
			: "";
		return refuse("expand", `fold ${args.id} cannot be shown here: ${why}; ${byPi}${peek} still reads its original`);
	}
	if (snap.state.expanded.has(args.id))
		return { text: `Fold ${args.id} is already expanded.`, details: { action: "expand", id: args.id, already: true } };
	const closed = snap.lattice
		.ancestors(args.id)
		.reverse()
		.find((a) => !snap.state.expanded.has(a.record.id));
	if (closed)
		return refuse(
			"expand",
			`fold ${args.id} sits inside collapsed fold ${closed.record.id}; expand outside-in (expand ${closed.record.id} first), or peek ${args.id} without expanding`,
		);
	const tooBig = expandRefusal(input, snap, args.id);
	if (tooBig) return refuse("expand", tooBig, { id: args.id });
	let leaves: number;
	let from: SourceOrigin;
	try {
		const read = await readBoundSourceFrom(input.runtime.store(input.host), fold.record, snap.view);
		leaves = read.entries.length;
		from = read.from;
	} catch (error) {
		return refuse("expand", sourceRefusal(input, error, "expand", args.id), { id: args.id });
	}
	input.decide({ kind: "expand", actor: input.actor, foldId: args.id });
	const nested = fold.children.filter((c) => c.type === "fold").map((c) => c.id);
	const stay = nested.length > 0 ? ` Nested folds stay collapsed: ${nested.join(", ")}.` : "";
	return {
		text: `Expanding ${args.id} (${plural(leaves, "entry", "entries")}, source verified${from === "session" ? " from the session's entries: the fold store has no copy" : ""}); ${landing(input.actor)}.${stay} Refold it with ${askFor(input, "refold", args.id)} when done.`,
		details: { action: "expand", id: args.id, nested },
	};
}

export function refoldAction(input: DecidingInput, args: { id: string }): ActionResult {
	const snap = input.runtime.snapshot(input.host);
	if (!snap.state.folds.has(args.id)) return refuse("refold", `no fold ${args.id} on this branch`);
	if (!snap.state.expanded.has(args.id))
		return { text: `Fold ${args.id} is already collapsed.`, details: { action: "refold", id: args.id, already: true } };
	input.decide({ kind: "refold", actor: input.actor, foldId: args.id });
	return { text: `Refolding ${args.id}; ${landing(input.actor)}.`, details: { action: "refold", id: args.id } };
}

export function protectAction(
	input: DecidingInput,
	args: { action: "protect" | "unprotect"; ids?: readonly string[] | undefined; id?: string | undefined },
): ActionResult {
	const snap = input.runtime.snapshot(input.host);
	const verb = args.action;
	if (args.id !== undefined) {
		if (!snap.state.folds.has(args.id)) return refuse(verb, `no fold ${args.id} on this branch`);
		input.decide({ kind: verb, actor: input.actor, target: { foldId: args.id } });
		return {
			text:
				verb === "protect"
					? `Protected fold ${args.id}: it will not be absorbed, merged or dissolved until unprotected.`
					: `Unprotected fold ${args.id}.`,
			details: { action: verb, id: args.id },
		};
	}
	// An id as the model saw it: an entry id, or a tool call id (either half of a Responses `call_id|item_id`).
	const ids = [...new Set((args.ids ?? []).map((id) => resolveId(snap, id)))];
	const known = new Set(snap.view.transcript.map((e) => e.id));
	const missing = ids.find((id) => !known.has(id));
	if (missing !== undefined) return refuse(verb, `entry ${missing} is not an entry of this branch's context`);
	input.decide({ kind: verb, actor: input.actor, target: { entryIds: ids } });
	const folded = ids.filter((id) => {
		const at = snap.lattice.position.get(id) ?? -1;
		return snap.lattice.innermostAt(at) !== undefined;
	});
	const note =
		verb === "protect" && folded.length > 0
			? ` ${plural(folded.length, "entry is", "entries are")} already inside a fold, which stays as it is (${folded.join(", ")}).`
			: "";
	return {
		text:
			verb === "protect"
				? `Protected ${plural(ids.length, "entry", "entries")}: they stay raw; no fold may include them.${note}`
				: `Unprotected ${plural(ids.length, "entry", "entries")}.`,
		details: { action: verb, ids },
	};
}

export function rebriefAction(input: DecidingInput, args: { id: string; brief: string }): ActionResult {
	const snap = input.runtime.snapshot(input.host);
	if (!snap.state.folds.has(args.id)) return refuse("rebrief", `no fold ${args.id} on this branch`);
	const bad = briefProblem(args.brief);
	if (bad) return refuse("rebrief", bad);
	input.decide({
		kind: "rebrief",
		actor: input.actor,
		foldId: args.id,
		brief: args.brief.trim(),
		briefSource: input.actor === "human" ? "supplied" : "agent",
	});
	return { text: `New brief for ${args.id}; ${landing(input.actor)}.`, details: { action: "rebrief", id: args.id } };
}

export function unmarkAction(input: DecidingInput, args: { id: string }): ActionResult {
	if (input.runtime.options.foldScheduling === "immediate")
		return refuse("unmark", `unmark applies to pending marks (cost and epoch scheduling); ${args.id} is unchanged`);
	const snap = input.runtime.snapshot(input.host);
	const mark = snap.state.pendingMarks.get(args.id);
	if (!mark) {
		const why = snap.state.folds.has(args.id)
			? `${args.id} is already committed (a fold in the window); refold/reboundary apply to it, not unmark`
			: `${args.id} is not a pending mark on this branch`;
		return refuse("unmark", why);
	}
	input.decide({ kind: "unmark", actor: input.actor, foldId: args.id });
	return {
		text: `Withdrew mark ${args.id} (${mark.actor}${mark.topUp ? ", top-up" : ""}); nothing in the window moved.`,
		details: { action: "unmark", id: args.id },
	};
}
