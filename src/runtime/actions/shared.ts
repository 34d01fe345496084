// What every action takes and returns: the runtime, the host of the call, who is acting, and a text
// result (with structured details) that the tool or a command shows. Pure helpers.

import type { Actor } from "../../state/index.ts";
import type { Host } from "../ports.ts";
import type { FoldRuntime } from "../runtime.ts";

export interface ActionInput {
	readonly runtime: FoldRuntime;
	readonly host: Host;
	readonly actor: Actor;
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
		? "the next turn boundary commits it to the window"
		: "it lands in the window at the next request (the turn boundary commits it)";
}

/** A short single-line excerpt. */
export function excerpt(text: string, limit = 100): string {
	const flat = text.replace(/\s+/g, " ").trim();
	return flat.length <= limit ? flat : `${flat.slice(0, limit - 1)}…`;
}

export function plural(n: number, one: string, many = `${one}s`): string {
	return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}
