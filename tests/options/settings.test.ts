// Settings files as an installed user writes them: a file's text is checked by the same zod schema
// as registerPiFold's options, and a problem names the field, the value and the valid values; the
// layers combine code > project file > global file > default, each option reporting where it came
// from; a file that does not combine with the layers under it is ignored whole, saying why.

import { describe, expect, it } from "vitest";
import {
	CODE_ONLY_OPTIONS,
	FILE_OPTIONS,
	OptionsError,
	optionsSchema,
	parseSettingsText,
	type SettingsFile,
	settleOptions,
} from "../../src/options/index.ts";

const problemOf = (file: SettingsFile): string => (file.state === "invalid" ? file.problem : `(${file.state})`);
const global = (text: string) => parseSettingsText("global", "/agent/pi-fold.json", text);
const project = (text: string) => parseSettingsText("project", "/work/.pi/pi-fold.json", text);

describe("a settings file's text", () => {
	it("reads every JSON-expressible option, a list of read-only tools becoming a set", () => {
		const file = global(
			JSON.stringify({
				$schema: "ignored",
				foldScheduling: "epoch",
				summarizer: { provider: "openai", model: "gpt-5.6-luna", effort: "medium" },
				readOnlyTools: ["read", "grep"],
				providerTotalWindow: 372_000,
			}),
		);
		expect(file.state).toBe("read");
		const values = file.state === "read" ? file.values : {};
		expect(values.readOnlyTools).toEqual(new Set(["read", "grep"]));
		expect(Object.keys(values)).toEqual(["foldScheduling", "summarizer", "readOnlyTools", "providerTotalWindow"]);
	});

	it("names the field, the value and the valid values of a bad value", () => {
		expect(problemOf(global('{"foldScheduling": "epok"}'))).toBe(
			'foldScheduling: "epok" is not valid; valid: "cost", "immediate" or "epoch"',
		);
		expect(problemOf(global('{"providerTotalWindow": -5, "evidenceIngestion": "yes"}'))).toBe(
			"providerTotalWindow: -5 is not valid; valid: a positive whole number of tokens; evidenceIngestion: " +
				'"yes" is not valid; valid: true or false',
		);
		expect(problemOf(global('{"readOnlyTools": "read"}'))).toBe(
			'readOnlyTools: "read" is not valid; valid: a list of tool names, like ["read", "grep", "find", "ls"]',
		);
		expect(problemOf(global('{"foldScheduling": "immediate", "toolActions": ["status", "unmark"]}'))).toBe(
			'toolActions: unmark is not available with foldScheduling: "immediate" (a fold there is not a pending mark)',
		);
	});

	it("says a removed setting was removed, and why", () => {
		expect(problemOf(global('{"blockingTools": ["Agent"]}'))).toMatch(
			/^blockingTools was removed: Pi appends context edits only at turn boundaries/,
		);
	});

	it("suggests the setting a misspelt key meant, and lists the valid ones", () => {
		const problem = problemOf(global('{"foldSchedulng": "epoch"}'));
		expect(problem).toMatch(
			/^"foldSchedulng" is not a pi-fold setting; did you mean foldScheduling\? \(valid settings: /,
		);
		expect(problem).toContain(Object.keys(FILE_OPTIONS).join(", "));
	});

	it("refuses a function option: only code can set it", () => {
		expect(problemOf(global('{"summarizeContextSpan": "x"}'))).toBe(
			"summarizeContextSpan is a function, so only code can set it (registerPiFold(pi, { summarizeContextSpan }))",
		);
	});

	it("lets only the global file name the tool and the commands (Pi registers them before it reads the project)", () => {
		expect(global('{"toolName": "ctx", "commandPrefix": "pf"}').state).toBe("read");
		expect(problemOf(project('{"toolName": "ctx"}'))).toMatch(
			/^toolName can be set only in the global file or in code: Pi registers/,
		);
	});

	it("says what is wrong with text that is not one JSON object", () => {
		expect(problemOf(global('{"foldScheduling": "epoch",}'))).toMatch(/^not valid JSON \(/);
		expect(problemOf(global('["epoch"]'))).toBe('must be one JSON object, like {"foldScheduling": "epoch"}');
	});

	it("covers every option: each is settable from a file or only from code", () => {
		expect([...Object.keys(FILE_OPTIONS), ...CODE_ONLY_OPTIONS].sort()).toEqual(
			Object.keys(optionsSchema.shape).sort(),
		);
	});
});

describe("settling the layers", () => {
	it("puts code over the project file over the global file over the defaults, and says where each came from", () => {
		const settled = settleOptions({ summarizer: "deterministic" }, [
			global('{"foldScheduling": "epoch", "brandNoun": "folds", "summarizer": "session"}'),
			project('{"brandNoun": "project-folds", "readOnlyTools": []}'),
		]);
		expect(settled.resolved).toMatchObject({
			foldScheduling: "epoch",
			brandNoun: "project-folds",
			summarizer: "deterministic",
			foldPeekResults: true,
		});
		expect(settled.resolved.toolActions).toContain("unmark");
		expect(settled.resolved.readOnlyTools).toEqual(new Set());
		expect(settled.sources).toMatchObject({
			summarizer: "code",
			brandNoun: "project",
			readOnlyTools: "project",
			foldScheduling: "global",
			toolName: "default",
			foldPeekResults: "default",
		});
	});

	it("ignores a whole file that does not combine with the layers under it, naming why", () => {
		const settled = settleOptions(undefined, [
			global('{"foldScheduling": "epoch", "toolActions": ["status", "fold", "unmark"]}'),
			project('{"foldScheduling": "immediate", "brandNoun": "kept-out"}'),
		]);
		expect(settled.resolved.foldScheduling).toBe("epoch");
		expect(settled.resolved.brandNoun).toBe("active-context");
		expect(problemOf(settled.files[1] as SettingsFile)).toBe(
			'toolActions: unmark is not available with foldScheduling: "immediate" (a fold there is not a pending mark) (with the settings it adds to)',
		);
	});

	it("still throws on bad options passed in code (a programming error), before any file", () => {
		expect(() => settleOptions({ foldScheduling: "sometimes" as never }, [])).toThrow(OptionsError);
	});

	it("runs on the defaults when the only file is invalid", () => {
		const settled = settleOptions(undefined, [global('{"foldScheduling": 1}')]);
		expect(settled.resolved.foldScheduling).toBe("cost");
		expect(Object.values(settled.sources).every((s) => s === "default")).toBe(true);
	});
});
