// The bounded receipt of a commit: one short line of what the runtime did (folds applied and whose,
// refusals by name, estimated tokens freed), built once and returned as a `custom_message` draft in
// the commit's own proposal, so it lands as a pure append right after the turn's results and is
// never re-rendered or withdrawn. Only commits the runtime chose the moment of (epoch commits and
// automatic ladder commits) carry one; an immediate commit of the agent's own decisions does not,
// since the agent's tool result already said what it decided. Pure.

import type { DecisionBody } from "../../state/index.ts";

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

/** A commit's predicted arithmetic in one clause: the rewrite, the saving per request, the break-even. */
export function arithmetic(p: NonNullable<Extract<DecisionBody, { kind: "commit" }>["prediction"]>): string {
	const usd = (x: number) => `$${x < 0.01 ? x.toFixed(4) : x.toFixed(2)}`;
	const back =
		p.breakEvenRequests === null
			? "never pays back"
			: p.breakEvenRequests === 0
				? "costs nothing extra"
				: `pays back in ${p.breakEvenRequests} request${p.breakEvenRequests === 1 ? "" : "s"}`;
	return `rewrites ~${p.rewriteTokens.toLocaleString("en-US")} tokens (${usd(p.rewriteUsd)} over cache reads), saves ${usd(p.savingPerRequestUsd)} a request, ${back}`;
}

/** The receipt text of `body`, or null when the commit changed nothing the receipt could report. */
export function receiptText(
	body: Extract<DecisionBody, { kind: "commit" }>,
	brandNoun: string,
	ladder: readonly string[],
	freedTokens: number,
): string | null {
	if (body.applied.length === 0 && body.refused.length === 0) return null;
	const agent = body.agentMarks.length;
	const topUp = body.topUpMarks.length;
	const ladderOnly = ladder.filter((id) => !body.topUpMarks.includes(id)).length;
	const parts = [`[${brandNoun} commit #${body.seq}: folded ${body.applied.length}`];
	const whose: string[] = [];
	if (agent > 0) whose.push(`${agent} agent mark${agent === 1 ? "" : "s"}`);
	if (topUp > 0) whose.push(`${topUp} top-up`);
	if (ladderOnly > 0) whose.push(`${ladderOnly} ladder`);
	if (whose.length > 0) parts.push(` (${whose.join(", ")})`);
	if (freedTokens > 0) parts.push(`, ~${Math.round(freedTokens).toLocaleString("en-US")} tokens freed`);
	if (body.prediction) parts.push(`; ${arithmetic(body.prediction)}`);
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
