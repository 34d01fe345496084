// The context tool's actions as the runtime runs them, for the agent (the tool) and the human (the
// commands): validate raw arguments with the one zod schema, serialize decisions through the
// runtime's lock, dispatch to the action, and return a text result. Nothing throws past `callTool`:
// a bad call or a failure comes back as an error result that changed nothing.

import { errorMessage } from "../../common/index.ts";
import type { Actor } from "../../state/index.ts";
import type { Host } from "../ports.ts";
import type { RuntimePort } from "../runtime-port.ts";
import { staleStatus } from "../stale.ts";
import { statusModel } from "../status/model.ts";
import { renderStatus } from "../status/render.ts";
import { foldAction, reboundaryAction } from "./fold.ts";
import { peekAction } from "./peek.ts";
import { searchAction } from "./search.ts";
import type { ActionInput, ActionResult, DecidingInput } from "./shared.ts";
import { parseToolArgs, type ToolArgs } from "./tool-schema.ts";
import { expandAction, protectAction, rebriefAction, refoldAction, unmarkAction } from "./view.ts";

export type { ActionInput, ActionResult, DecidingInput } from "./shared.ts";
export {
	PEEK_DEFAULT_BYTES,
	PEEK_MAX_BYTES,
	parseToolArgs,
	shapeOf,
	type ToolArgs,
	toolParameters,
} from "./tool-schema.ts";

/** Runs one validated action. Decisions run one at a time (the runtime's lock). */
export async function runAction(input: ActionInput, args: ToolArgs): Promise<ActionResult> {
	const locked = <T>(fn: (deciding: DecidingInput) => Promise<T> | T) =>
		input.runtime.transaction(input.host, (decide) => fn({ ...input, decide }));
	switch (args.action) {
		case "status": {
			const model = statusModel(input.runtime, input.host);
			const out = renderStatus(model, args);
			const stale = staleStatus(input.runtime, input.host, model.snap);
			const text = stale.lines.length > 0 ? `${out.text}\n${stale.lines.join("\n")}` : out.text;
			return { text, details: { ...out.details, staleReads: stale.details } };
		}
		case "peek":
			return peekAction(input, args);
		case "search":
			return searchAction(input, args);
		case "fold":
			return locked((deciding) => foldAction(deciding, args));
		case "expand":
			return locked((deciding) => expandAction(deciding, args));
		case "refold":
			return locked((deciding) => refoldAction(deciding, args));
		case "protect":
		case "unprotect":
			return locked((deciding) => protectAction(deciding, args));
		case "rebrief":
			return locked((deciding) => rebriefAction(deciding, args));
		case "reboundary":
			return locked((deciding) => reboundaryAction(deciding, args));
		case "unmark":
			return locked((deciding) => unmarkAction(deciding, args));
	}
}

/** Validates and runs raw arguments; never throws. */
export async function callTool(runtime: RuntimePort, host: Host, raw: unknown, actor: Actor): Promise<ActionResult> {
	const parsed = parseToolArgs(raw, runtime.options.toolActions);
	if (!parsed.ok) {
		// The human typed a slash command: name the command, not the tool, and no JSON shapes.
		const text =
			actor === "human"
				? `/${runtime.options.commandNames.fold}: ${parsed.error.replace(/\.? (Valid shape|Shapes):[\s\S]*$/, "")}`
				: `${runtime.options.toolName}: ${parsed.error}`;
		return { text, details: { error: parsed.error }, isError: true };
	}
	try {
		return await runAction({ runtime, host, actor }, parsed.args);
	} catch (error) {
		const message = errorMessage(error);
		return {
			text: `${runtime.options.toolName} ${parsed.args.action} failed (nothing was recorded): ${message}`,
			details: { action: parsed.args.action, error: message },
			isError: true,
		};
	}
}
