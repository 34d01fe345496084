// The scripted agent facing a fact from earlier work (a reuse question: "From your earlier work: ..."). A real model
// that does not see the fact guesses unless something in its window says where the fact went. So: when the window
// answers it without a call (a raw read, a summary or a brief stating it), it is used; when the window names where it
// is (the file's path or the symbol, anywhere but in this stage's own instructions: a brief, a name index, a summary's
// file list, an earlier stage's file list), the agent recalls it through its arm's routes (pi-fold: search, peek,
// expand; every arm: rereading the named file); otherwise it is a blind miss and the agent answers without looking.
// A path written in a directory's brace group ("pkg/dist/{a.js,b.js}", as a shell expands braces) is named, as a
// reader would take it. Decided from the window alone. Pure functions.

import type { Message } from "@earendil-works/pi-ai";
import { questionTarget } from "./routes.ts";
import { type QuestionView, type StageView, textOf, type WindowView } from "./window-view.ts";

/** The route name a blind miss is recorded under. */
export const BLIND_ROUTE = "blind";

/** The names that would tell the agent where a fact is: the file's path, the symbol. */
export function reuseTerms(q: QuestionView): string[] {
	const target = questionTarget(q);
	return [target.file, target.symbol].filter((t): t is string => typeof t === "string" && t.length > 0);
}

/** A message's text as the model reads it: its text blocks and its tool calls' arguments. */
function messageText(message: Message): string {
	const text = textOf(message.content);
	if (message.role !== "assistant") return text;
	const args = message.content.flatMap((b) => (b.type === "toolCall" ? [JSON.stringify(b.arguments)] : []));
	return [text, ...args].join("\n");
}

const BRACE_GROUP = /(\/?(?:[\w.@+-]+\/)+)\{([\w.@+-]+(?:,[\w.@+-]+)+)\}/g;

/** Does `text` name `term`: as written, or as one of the paths a brace group ("dir/{a.js,b.js}") stands for? */
export function textNames(text: string, term: string): boolean {
	if (text.includes(term)) return true;
	const slash = term.lastIndexOf("/");
	if (slash < 0 || !text.includes("{")) return false;
	const dir = term.slice(0, slash + 1);
	const base = term.slice(slash + 1);
	for (const m of text.matchAll(BRACE_GROUP))
		if (m[1] === dir && (m[2] as string).split(",").includes(base)) return true;
	return false;
}

/** Does the window, outside this stage's own result, name any of `terms`? */
export function windowNames(view: WindowView, stage: StageView, terms: readonly string[]): boolean {
	if (terms.length === 0) return false;
	return view.messages.some((m, i) => {
		if (i === stage.index) return false;
		const text = messageText(m);
		return terms.some((t) => textNames(text, t));
	});
}
