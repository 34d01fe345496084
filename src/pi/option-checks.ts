// Options checked against the session they run in, each problem told to the human once, naming the
// option: a `toolName` that is already a tool of the session (Pi's built-ins, a tool the host passed,
// another extension's) is not registered at all, so pi-fold never replaces a host tool; a serving
// budget smaller than one request can need (the system prompt plus REQUEST_FLOOR_TAIL_TOKENS of
// fresh tail) is reported with the floor; a callback option that throws (summarizeContextSpan,
// setProjectionProvider, setSuggestionSourceRegistrar) is reported and contained (a brief falls
// back, the host goes without what it asked for).
// Reports made before a session exists wait for session_start. Reads Pi's tool list; writes nothing.

import type { ExtensionAPI, ExtensionContext, ToolInfo } from "@earendil-works/pi-coding-agent";
import { errorMessage } from "../common/index.ts";
import type { ResolvedOptions } from "../options/index.ts";
import { budgetFor } from "../policy/index.ts";
import type { ModelInfo, Notify } from "../runtime/index.ts";
import { estimateTokens } from "../wasm/index.ts";
import type { PiFold } from "./host.ts";
import { notifierFor } from "./notify.ts";

/** Tokens of fresh tail one request needs beside the system prompt: the floor of a serving budget. */
export const REQUEST_FLOOR_TAIL_TOKENS = 4_096;

/** Tells the human each problem once (by key); before a session exists, queues until session_start. */
export class OptionReporter {
	private notify: Notify | null = null;
	private readonly queued: string[] = [];
	private readonly told = new Set<string>();

	/** Binds the reporter to a session's notifier and sends what waited. */
	attach(ctx: Pick<ExtensionContext, "hasUI" | "ui">): void {
		this.notify = notifierFor(ctx);
		for (const message of this.queued.splice(0)) this.notify(message, "warning");
	}

	/** Reports `message` unless `key` was reported before. */
	report(key: string, message: string): void {
		if (this.told.has(key)) return;
		this.told.add(key);
		const text = `pi-fold option ${message}`;
		if (this.notify) this.notify(text, "warning");
		else this.queued.push(text);
	}
}

type Callback = (...args: never[]) => unknown;

/** `fn` with a throw reported once as `option` and answered by `fallback` (which may rethrow). */
function contained<F extends Callback>(
	reporter: OptionReporter,
	option: string,
	fn: F,
	consequence: string,
	fallback: (error: unknown) => ReturnType<F>,
): F {
	return ((...args: Parameters<F>) => {
		try {
			return fn(...args);
		} catch (error) {
			reporter.report(option, `${option} threw: ${errorMessage(error)}; ${consequence}`);
			return fallback(error);
		}
	}) as F;
}

/** The options with every callback contained: a throw is reported once, naming the option. */
export function containCallbacks(options: ResolvedOptions, reporter: OptionReporter): ResolvedOptions {
	const summarize = options.summarizeContextSpan;
	const project = options.setProjectionProvider;
	const suggest = options.setSuggestionSourceRegistrar;
	const say = (error: unknown) =>
		reporter.report(
			"summarizeContextSpan",
			`summarizeContextSpan threw: ${errorMessage(error)}; briefs fall back to the deterministic brief`,
		);
	return {
		...options,
		summarizeContextSpan: summarize
			? async (request) => {
					try {
						return await summarize(request);
					} catch (error) {
						if (!request.signal?.aborted) say(error);
						throw error;
					}
				}
			: undefined,
		setProjectionProvider: project
			? contained(reporter, "setProjectionProvider", project, "the host has no projection provider", () => undefined)
			: undefined,
		setSuggestionSourceRegistrar: suggest
			? contained(
					reporter,
					"setSuggestionSourceRegistrar",
					suggest,
					"the host has no suggestion registrar",
					() => undefined,
				)
			: undefined,
	};
}

/** Who owns `tool`, in words. */
function ownerOf(tool: ToolInfo): string {
	const source = tool.sourceInfo;
	if (source.source === "builtin") return `Pi's built-in tool ${tool.name} (${source.path})`;
	if (source.source === "sdk") return `a tool the host passed to Pi (${source.path})`;
	return `a tool of ${source.path}`;
}

/**
 * Registers the context tool at session start unless its name is taken (then it is not registered
 * at all, and the human is told once). `register` registers it; it runs at most once per load.
 */
export function registerToolChecked(
	pi: ExtensionAPI,
	fold: PiFold,
	reporter: OptionReporter,
	register: () => void,
): void {
	let registered = false;
	pi.on("session_start", (_event, ctx) => {
		reporter.attach(ctx);
		if (registered) return;
		const name = fold.runtime.options.toolName;
		let taken: ToolInfo | undefined;
		try {
			taken = pi.getAllTools().find((tool) => tool.name === name);
		} catch (error) {
			reporter.report(
				`toolName:${name}`,
				`toolName "${name}" could not be checked against the session's tools (${errorMessage(error)}): pi-fold did not register its context tool`,
			);
			return;
		}
		if (taken) {
			reporter.report(
				`toolName:${name}`,
				`toolName "${name}" is already ${ownerOf(taken)}: pi-fold did not register its context tool, so it replaces nothing, and the agent cannot fold, peek or expand (the ladder and /${fold.runtime.options.commandNames.fold} still work). Choose another toolName.`,
			);
			return;
		}
		register();
		registered = true;
	});
}

/** Reports, once per window, a serving budget below one request's floor. */
export function checkWindow(
	options: Pick<ResolvedOptions, "providerTotalWindow">,
	reporter: OptionReporter,
	model: ModelInfo | undefined,
	systemPrompt: string,
): void {
	const budget = budgetFor(model, options.providerTotalWindow);
	const system = estimateTokens(systemPrompt);
	const floor = system + REQUEST_FLOOR_TAIL_TOKENS;
	if (budget.budgetTokens >= floor) return;
	const fmt = (n: number) => n.toLocaleString("en-US");
	const window =
		budget.totalWindowSource === "providerTotalWindow"
			? `providerTotalWindow ${fmt(budget.totalWindow)}`
			: `providerTotalWindow (not given: the model's window ${fmt(budget.totalWindow)})`;
	reporter.report(
		`window:${budget.totalWindow}:${budget.outputReservation}`,
		`${window} leaves a serving budget of ${fmt(budget.budgetTokens)} token${budget.budgetTokens === 1 ? "" : "s"} (less ${fmt(budget.outputReservation)} kept for the reply), below one request's floor of ${fmt(floor)}: the system prompt (~${fmt(system)}) plus ${fmt(REQUEST_FLOOR_TAIL_TOKENS)} tokens of fresh tail. Requests will be fenced and /compact cannot make room; give the real window.`,
	);
}

/** Checks the window at session start, before each prompt and on a model change. */
export function registerWindowCheck(pi: ExtensionAPI, fold: PiFold, reporter: OptionReporter): void {
	const check = (ctx: ExtensionContext, systemPrompt?: string) => {
		try {
			// The options in force now (a project's settings file may set providerTotalWindow).
			checkWindow(
				fold.runtime.options,
				reporter,
				fold.host(ctx).model(),
				systemPrompt ?? ctx.getSystemPrompt?.() ?? "",
			);
		} catch (error) {
			reporter.report("window-check", `providerTotalWindow could not be checked: ${errorMessage(error)}`);
		}
	};
	pi.on("session_start", (_event, ctx) => check(ctx));
	pi.on("model_select", (_event, ctx) => check(ctx));
	pi.on("before_agent_start", (event, ctx) => check(ctx, event.systemPrompt));
}
