// Runs the real `pi` CLI the way a user does: `pi install <this checkout>` into a temporary agent
// dir, then a print-mode turn, offline, against Pi's faux provider (a test-only extension). Pi
// exits non-zero when an extension fails to load, so this proves the packaged bundle
// (package.json "pi.extensions" -> index.js -> build/extension.js, Wasm embedded) loads inside Pi,
// and that Pi's start-up list names it by its package, not as "extension.js".
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { DefaultPackageManager, InteractiveMode, SettingsManager } from "@earendil-works/pi-coding-agent";
import { afterAll, describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const piCli = join(root, "node_modules/@earendil-works/pi-coding-agent/dist/bundle/cli.js");
const fauxExtension = join(root, "tests/fixtures/faux-provider-extension.ts");
const home = mkdtempSync(join(tmpdir(), "pi-fold-cli-"));
const env = { ...process.env, PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1", PI_CODING_AGENT_DIR: join(home, "agent") };

/** Runs the pi CLI with Node 22 and stdin closed (print mode reads piped stdin until EOF). */
function pi(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
	return new Promise((done, fail) => {
		const child = spawn(process.execPath, [piCli, ...args], { cwd: home, env, stdio: ["ignore", "pipe", "pipe"] });
		let stdout = "";
		let stderr = "";
		child.stdout.on("data", (chunk: Buffer) => {
			stdout += chunk.toString();
		});
		child.stderr.on("data", (chunk: Buffer) => {
			stderr += chunk.toString();
		});
		child.on("error", fail);
		child.on("close", (code) => done({ code, stdout, stderr }));
	});
}

afterAll(() => rmSync(home, { recursive: true, force: true }));

interface Listed {
	path: string;
	sourceInfo: { path: string; source: string; scope: string; origin: string; baseDir?: string };
}

/** The labels Pi's interactive start-up list gives these extensions (its own code, no terminal needed). */
function startupLabels(extensions: Listed[]): string[] {
	const mode = Object.create(InteractiveMode.prototype) as { getCompactExtensionLabels(e: Listed[]): string[] };
	return mode.getCompactExtensionLabels(extensions);
}

describe("the pi CLI with pi-fold installed by `pi install <dir>`", () => {
	it("records the package in the agent's settings", async () => {
		expect((await pi(["install", root])).code).toBe(0);
		const settings = JSON.parse(readFileSync(join(home, "agent/settings.json"), "utf8")) as { packages: string[] };
		expect(settings.packages.map((p) => resolve(join(home, "agent"), p))).toContain(root);
	});

	it("loads the packaged extension and completes an offline print-mode turn", async () => {
		const { code, stdout, stderr } = await pi([
			"-p",
			"--no-session",
			"-e",
			fauxExtension,
			"--provider",
			"faux",
			"--model",
			"faux-1",
			"--tools",
			"read,active_context",
			"hello",
		]);
		expect(stderr).not.toMatch(/Failed to load extension/);
		expect(code).toBe(0);
		// pi-fold's context tool reaches the model next to the built-in one.
		expect(stdout.trim()).toBe("tools offered: active_context,read");
	});

	it("is named by its package in Pi's start-up list, never as extension.js", async () => {
		const agentDir = join(home, "agent");
		const manager = new DefaultPackageManager({
			cwd: home,
			agentDir,
			settingsManager: SettingsManager.create(home, agentDir),
		});
		const resolved = (await manager.resolve()).extensions.filter((r) => r.enabled && r.path.startsWith(root));
		const installed = resolved.map((r) => ({ path: r.path, sourceInfo: { path: r.path, ...r.metadata } }));
		expect(installed.map((e) => e.path)).toEqual([join(root, "index.js")]);
		// Installed from a local checkout: Pi shows the checkout's folder (a clone of the repository: pi-fold).
		expect(startupLabels(installed)).toEqual([basename(root)]);
		// Installed from npm: the same file under the package's source shows as the package name.
		const npm = {
			path: join(root, "index.js"),
			source: "npm:pi-fold",
			scope: "user",
			origin: "package",
			baseDir: root,
		};
		expect(startupLabels([{ path: npm.path, sourceInfo: npm }])).toEqual(["pi-fold"]);
		// What the bundle itself would have been called (the reason index.js exists).
		const bundle = { ...installed[0]?.sourceInfo, path: join(root, "build/extension.js") } as Listed["sourceInfo"];
		expect(startupLabels([{ path: bundle.path, sourceInfo: bundle }])).toEqual(["extension.js"]);
	});
});
