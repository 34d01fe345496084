// Settings files in Pi. `pi-fold.json` in Pi's agent directory (the global file, read when Pi loads
// pi-fold) and in the project's `.pi/` directory (read at each session start, and only when Pi
// trusts the project, as Pi's extension docs ask: Pi loads a globally installed package before it
// has decided whether to trust the project). src/options `settleOptions` combines them with
// registerPiFold's options (code > project > global > default); the runtime is reconfigured and,
// when the scheduling or the action list changed and the tool is already registered, the tool is
// registered again so its description and parameters match. A file pi-fold had to ignore is reported once (UI notify, else one stderr
// line) naming the file, the field and the valid values. Reads files; writes none.

import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { CONFIG_DIR_NAME, type ExtensionContext } from "@earendil-works/pi-coding-agent";
import { errorMessage } from "../common/index.ts";
import {
	type PiFoldOptions,
	parseSettingsText,
	type ResolvedOptions,
	SETTINGS_FILE_NAME,
	type SettingsFile,
	type SettingsScope,
	type SettledOptions,
	settleOptions,
} from "../options/index.ts";
import type { PiFold } from "./host.ts";
import { notifierFor } from "./notify.ts";

/** Reads one settings file: absent, its values, or why it is ignored. */
export function readSettingsFile(scope: SettingsScope, path: string): SettingsFile {
	let text: string;
	try {
		text = readFileSync(path, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return { scope, path, state: "absent" };
		return { scope, path, state: "invalid", problem: `cannot be read: ${errorMessage(error)}` };
	}
	return parseSettingsText(scope, path, text);
}

/** A path as the human reads it: the home directory written as ~. */
export function displayPath(path: string): string {
	const home = homedir();
	return home && (path === home || path.startsWith(`${home}/`)) ? `~${path.slice(home.length)}` : path;
}

/** The project's settings file for a session in `cwd`. */
export function projectSettingsPath(cwd: string): string {
	return join(cwd, CONFIG_DIR_NAME, SETTINGS_FILE_NAME);
}

/** Whether the tool's description or parameters depend on what changed. */
function toolShapeChanged(a: ResolvedOptions, b: ResolvedOptions): boolean {
	return a.foldScheduling !== b.foldScheduling || a.toolActions.join() !== b.toolActions.join();
}

/** The settings pi-fold runs on: the global file read at load, the project file at each session start. */
export class PiFoldSettings {
	private readonly code: PiFoldOptions | undefined;
	private readonly global: SettingsFile;
	private readonly prepare: (resolved: ResolvedOptions) => ResolvedOptions;
	private settled: SettledOptions;

	/**
	 * Reads the global file at `globalPath`; throws (OptionsError) only when `code` itself is invalid.
	 * `prepare` turns settled options into the runtime's (option-checks.ts contains the callbacks).
	 */
	constructor(
		code: PiFoldOptions | undefined,
		globalPath: string,
		prepare: (resolved: ResolvedOptions) => ResolvedOptions = (resolved) => resolved,
	) {
		this.code = code;
		this.global = readSettingsFile("global", globalPath);
		this.prepare = prepare;
		this.settled = settleOptions(code, [this.global]);
	}

	/** The options the runtime runs on now. */
	get options(): ResolvedOptions {
		return this.prepare(this.settled.resolved);
	}

	/** The effective options, their sources and the files as used (for `/fold-context config`). */
	get current(): SettledOptions {
		return this.settled;
	}

	/** Session start: the project file (when trusted) joins; the runtime follows, and `retool` when the tool's shape changed. */
	atSessionStart(fold: PiFold, ctx: ExtensionContext, retool: () => void): void {
		const path = projectSettingsPath(ctx.cwd);
		const trusted = typeof ctx.isProjectTrusted === "function" ? ctx.isProjectTrusted() : true;
		const project: SettingsFile = trusted
			? readSettingsFile("project", path)
			: { scope: "project", path, state: existsSync(path) ? "untrusted" : "absent" };
		const before = fold.runtime.options;
		this.settled = settleOptions(this.code, [this.global, project]);
		fold.runtime.reconfigure(this.options);
		if (toolShapeChanged(before, this.settled.resolved)) retool();
		this.report(fold, ctx);
	}

	/** Tells the human once about each file pi-fold ignored or could not read. */
	private report(fold: PiFold, ctx: ExtensionContext): void {
		const notify = { notify: notifierFor(ctx) };
		for (const file of this.settled.files) {
			const where = displayPath(file.path);
			if (file.state === "invalid")
				fold.runtime.notifyOnce(
					notify,
					`settings:${file.path}:${file.problem}`,
					`pi-fold: ${where} ignored: ${file.problem}. pi-fold runs without this file's settings; /${fold.runtime.options.commandNames.fold} config shows what is in effect.`,
					"warning",
				);
			else if (file.state === "untrusted")
				fold.runtime.notifyOnce(
					notify,
					`settings:${file.path}:untrusted`,
					`pi-fold: ${where} not read: Pi does not trust this project. Trust it, then /reload, to use it.`,
					"info",
				);
		}
	}
}
