// The bounded receipt of a commit: one short line of what the runtime did (folds applied and whose,
// refusals by name, estimated tokens freed), built once and returned as a `custom_message` draft in
// the commit's own proposal, so it lands as a pure append right after the turn's results and is
// never re-rendered or withdrawn. Pi sends it as a user-role message, so it opens by saying it is an
// automatic notice that asks nothing (RECEIPT_NOTICE): the reply after a commit is about the work. Its counts add up: each applied fold is the agent's, the top-up's or
// the ladder's, once; a commit that something forced says what. Only commits the runtime chose the moment of (epoch commits and
// automatic ladder commits) carry one; an immediate commit of the agent's own decisions does not,
// since the agent's tool result already said what it decided. Pure.

import { nounFor } from "../../common/index.ts";
import { ASSUMED_PRICES_TEXT } from "../../policy/index.ts";
import type { DecisionBody } from "../../state/index.ts";

type CommitBody = Extract<DecisionBody, { kind: "commit" }>;

/**
 * What every receipt says first: it reaches the model as a user-role message right after the turn's
 * tool results (Pi sends custom messages so), and must not read as the user's next request.
 */
export const RECEIPT_NOTICE = "an automatic notice, not from the user; nothing to answer, carry on with the task";

/** A receipt never exceeds this many characters. */
export const RECEIPT_MAX_CHARS = 400;

/** Receipt custom-message type for an entry-type prefix (never part of the transcript pi-fold folds). */
export function receiptType(entryTypePrefix: string): string {
	return `${entryTypePrefix}:receipt`;
}

function list(ids: readonly string[], room: number): string {
	let out = "";
	for (const [i, id] of ids.entries()) {
		const next = out ? `${out}, ${id}` : id;
		if (next.length > room) return `${out} and ${ids.length - i} more`;
		out = next;
	}
	return out;
}

/**
 * A commit's predicted arithmetic in one clause: the rewrite, the saving per request, the break-even.
 * In dollars only at prices the model or the settings give; at assumed prices (no model prices), in
 * tokens, saying that the break-even rests on assumed prices. The tokens freed are not repeated here:
 * the line that carries this clause states them once ({@link freedFigure}).
 */
export function arithmetic(p: NonNullable<CommitBody["prediction"]>, assumedPrices = false): string {
	const usd = (x: number) => `$${x < 0.01 ? x.toFixed(4) : x.toFixed(2)}`;
	const back =
		p.breakEvenRequests === null
			? "never pays back"
			: p.breakEvenRequests === 0
				? "costs nothing extra"
				: `pays back in ${p.breakEvenRequests} ${nounFor(p.breakEvenRequests, "request")}`;
	const tokens = (n: number) => `~${n.toLocaleString("en-US")} tokens`;
	if (assumedPrices)
		return `rewrites ${tokens(p.rewriteTokens)}, ${back} at assumed prices (${ASSUMED_PRICES_TEXT}: the model states none)`;
	return `rewrites ${tokens(p.rewriteTokens)} (${usd(p.rewriteUsd)} over cache reads), saves ${usd(p.savingPerRequestUsd)} a request, ${back}`;
}

/**
 * The one freed figure a commit's line states: the prediction's (in the provider's tokens, what
 * Pi's footer and /context count) when the commit was priced, else the scheduler's estimate.
 */
export function freedFigure(prediction: { readonly freedTokens: number } | undefined | null, estimate: number): number {
	return prediction && prediction.freedTokens > 0 ? prediction.freedTokens : estimate;
}

/** What forced a commit, in the words of its receipt and its TUI line. */
export const FORCE_WORDS: Record<NonNullable<CommitBody["force"]>, string> = {
	budget: "forced: the window reached its budget",
	"price tier": "forced: it keeps the next request under the price tier",
	expand: "forced: an expand shows at the next request",
	"cold cache": "forced: the provider's cache had expired, so the rewrite cost nothing extra",
	rescue: "forced: nothing smaller would fit the window",
	oversize: "forced: a result too large for the window is shown as an excerpt",
};

/**
 * Whose each applied fold was, each counted once: the agent's (its marks, or its own folds), the
 * ladder's top-up, or the ladder's other rungs. `originOf` says who decided a fold that was not a mark.
 */
export function whoseFolds(body: CommitBody, originOf: (id: string) => "agent" | "ladder"): string[] {
	let agent = 0;
	let topUp = 0;
	let ladder = 0;
	for (const id of body.applied) {
		if (body.agentMarks.includes(id)) agent++;
		else if (body.topUpMarks.includes(id)) topUp++;
		else if (originOf(id) === "agent") agent++;
		else ladder++;
	}
	const out: string[] = [];
	if (agent > 0) out.push(`${agent} agent`);
	if (topUp > 0) out.push(`${topUp} top-up`);
	if (ladder > 0) out.push(`${ladder} ladder`);
	return out;
}

/** The receipt text of `body`, or null when the commit changed nothing the receipt could report. */
export function receiptText(
	body: CommitBody,
	brandNoun: string,
	originOf: (id: string) => "agent" | "ladder",
	freedTokens: number,
	assumedPrices = false,
): string | null {
	if (body.applied.length === 0 && body.refused.length === 0) return null;
	const parts = [`[${brandNoun} commit #${body.seq}, ${RECEIPT_NOTICE}: folded ${body.applied.length}`];
	const whose = whoseFolds(body, originOf);
	if (whose.length > 0) parts.push(` (${whose.join(", ")})`);
	const freed = freedFigure(body.prediction, freedTokens);
	if (freed > 0) parts.push(`, ~${Math.round(freed).toLocaleString("en-US")} tokens freed`);
	if (body.force) parts.push(`; ${FORCE_WORDS[body.force]}`);
	if (body.prediction) parts.push(`; ${arithmetic(body.prediction, assumedPrices)}`);
	const head = parts.join("");
	const refused =
		body.refused.length > 0
			? `; refused ${list(
					body.refused.map((r) => `${r.foldId} (${r.reason})`),
					140,
				)}`
			: "";
	const room = RECEIPT_MAX_CHARS - head.length - refused.length - 12;
	const ids = body.applied.length > 0 ? `: ${list(body.applied, Math.max(20, room))}` : "";
	const text = `${head}${ids}${refused}]`;
	return text.length <= RECEIPT_MAX_CHARS ? text : `${text.slice(0, RECEIPT_MAX_CHARS - 2)}…]`;
}
