// Where pi-fold tells the human something out of band in Pi: the UI's notify when there is a UI,
// else one `[pi-fold]` line on stderr (print and JSON modes). Never into the model's window.

import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { Notify } from "../runtime/index.ts";

export function notifierFor(ctx: Pick<ExtensionContext, "hasUI" | "ui">): Notify {
	return (message, level) => {
		if (ctx.hasUI) ctx.ui.notify(message, level);
		else process.stderr.write(`[pi-fold] ${message}\n`);
	};
}
