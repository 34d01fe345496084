// What every action takes and returns: the runtime's port (what an action reads, and the
// transaction that gives a deciding action its `decide`), the host of the call, who is acting, and a text
// result (with structured details) that the tool or a command shows; what to ask for next is said
// in the caller's own terms (the agent's JSON, the human's slash command). Pure helpers.

import type { Actor } from "../../state/index.ts";
import type { Host } from "../ports.ts";
import type { Decide } from "../runtime.ts";
import type { RuntimePort } from "../runtime-port.ts";

export interface ActionInput {
	readonly runtime: RuntimePort;
	readonly host: Host;
	readonly actor: Actor;
}

/** An action that records decisions: it runs inside the runtime's transaction, with its `decide`. */
export interface DecidingInput extends ActionInput {
	readonly decide: Decide;
}

export interface ActionResult {
	readonly text: string;
	readonly details: Record<string, unknown>;
	readonly isError?: boolean;
}

export function refuse(action: string, reason: string, details: Record<string, unknown> = {}): ActionResult {
	return { text: `${action} refused: ${reason}`, details: { action, refused: reason, ...details }, isError: true };
}

/** When a recorded decision reaches the window (immediate scheduling: the next boundary). */
export function landing(actor: Actor): string {
	return actor === "human"
		? "the model sees it after the agent's next turn"
		: "it lands in the window at the next request (the turn boundary commits it)";
}

/**
 * How the caller asks for `action` on fold `id` next: the agent in the tool's JSON
 * (`{"action":"refold","id":"f…"}`), the human as the slash command (`/fold-context refold f…`).
 */
export function askFor(
	input: Pick<ActionInput, "actor" | "runtime">,
	action: "refold" | "expand" | "unmark" | "peek",
	id: string,
	offset?: number,
): string {
	if (input.actor === "human")
		return `/${input.runtime.options.commandNames.fold} ${action} ${id}${offset !== undefined ? ` ${offset}` : ""}`;
	return JSON.stringify({ action, id, ...(offset !== undefined ? { offset } : {}) });
}

/** A short single-line excerpt. */
export function oneLineExcerpt(text: string, limit = 100): string {
	const flat = text.replace(/\s+/g, " ").trim();
	return flat.length <= limit ? flat : `${flat.slice(0, limit - 1)}…`;
}
