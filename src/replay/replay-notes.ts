// The replay report's explanations, in the words of the person who ran the session: where the
// window and the reply's reserve came from (and so pi-fold's limit), what it means that the agent's
// context-tool call was answered differently in the replay, and why pi-fold's estimated requests can
// rise above pi-fold's limit. Pure.

import type { ReplayResult } from "./replay-session.ts";

const int = (n: number) => Math.round(n).toLocaleString("en-US");

/** The model, its window and pi-fold's limit, each with where it came from. */
export function limitsLines(r: ReplayResult): string[] {
	return [
		`Model: ${r.model ?? "not named in the file"} · window ${int(r.window)} tokens (${r.windowFrom})`,
		r.reservationFrom === "reply-room"
			? `pi-fold's limit: ${int(r.budget)} tokens, the window less the ${int(r.maxOutput)} tokens Pi keeps for a reply: pi-ai sizes each reply to the room the prompt leaves, so ${r.outputCap > r.maxOutput ? `the model's ${int(r.outputCap)}-token output cap (${r.maxOutputFrom}) is not held back` : `the model's output cap (${int(r.outputCap)}, ${r.maxOutputFrom}) is all a reply takes`}`
			: `pi-fold's limit: ${int(r.budget)} tokens, the window less the ${int(r.maxOutput)} output tokens a reply can take (${r.maxOutputFrom}), under the room Pi keeps for a reply`,
	];
}

/** A short, one-line excerpt of a tool answer. */
function gist(text: string): string {
	const flat = text.replace(/\s+/g, " ").trim();
	return flat.length <= 60 ? flat : `${flat.slice(0, 59)}…`;
}

/** One note for every context-tool call the replay's pi-fold answered in other words, or none. */
export function divergenceNote(r: ReplayResult): string[] {
	const d = r.pifold.divergences;
	const first = d[0];
	if (!first) return [];
	const ids =
		d
			.map((c) => c.callId)
			.slice(0, 3)
			.join(", ") + (d.length > 3 ? ", …" : "");
	const calls =
		d.length === 1 ? `the agent's context-tool call ${ids}` : `${d.length} of the agent's context-tool calls (${ids})`;
	return [
		`Note: pi-fold answers ${calls} otherwise in the replay, which folds afresh: "${gist(first.replayed)}" where the session's pi-fold said "${gist(first.recorded)}". ` +
			"The replay keeps the agent's recorded replies, so its figures assume the agent would have gone on the same way; a different wording or timing changes little, a refusal where the session folded more.",
	];
}

/** pi-fold's estimated requests above its limit but within the window, and why that happens. */
export function overLimitNote(r: ReplayResult): string[] {
	const over = r.pifold.requests.filter((q) => q.prompt > r.budget && q.prompt <= r.window).map((q) => q.reply);
	if (over.length === 0) return [];
	const which = over.slice(0, 5).join(", ") + (over.length > 5 ? ", …" : "");
	return [
		`Above pi-fold's limit: ${over.length} of pi-fold's requests (replies ${which}) are estimated above its ${int(r.budget)}-token limit, within the window. ` +
			"pi-fold folds only at turn boundaries and never the newest turns, so a long turn grows past the limit until the next commit; there a reply has less room than it reserves.",
	];
}

/** The chart's note: why its pi-fold line rises above "pi-fold's limit", when it does. */
export function chartNote(r: ReplayResult): string | undefined {
	const over = r.pifold.requests.some((q) => q.prompt > r.budget);
	return over
		? "Above pi-fold's limit, pi-fold waits for a turn boundary and never folds the newest turns; a reply there has less room than it reserves."
		: undefined;
}
