// Where pi-fold tells the human something out of band in Pi: the UI's notify when there is a UI,
// else one `[pi-fold]` line on stderr (print and JSON modes). Never into the model's window. Every
// notice has its control characters, bidi controls and lone surrogates escaped visibly (a notice
// may quote a brief, a tool name or a file name), so none reaches the terminal raw.

import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import { escapeUnsafe } from "../common/index.ts";
import type { Notify } from "../runtime/index.ts";

export function notifierFor(ctx: Pick<ExtensionContext, "hasUI" | "ui">): Notify {
	return (message, level) => {
		const text = escapeUnsafe(message);
		if (ctx.hasUI) ctx.ui.notify(text, level);
		else process.stderr.write(`[pi-fold] ${text}\n`);
	};
}
