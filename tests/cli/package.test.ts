// The package as a user gets it: `npm pack` once, the tarball installed offline into a scratch project
// (its one dependency, zod, and the Pi peers linked from this repository's node_modules: no network),
// then a strict NodeNext TypeScript consumer type-checked against the shipped declarations, and the
// shipped bundles run from the install.

import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "./run.ts";

let scratch: string;
let consumer: string;
let packed: string[];

function npm(args: string[], cwd: string): string {
	return execFileSync("npm", [...args, "--loglevel=error"], { cwd, encoding: "utf8", timeout: 120_000 });
}

function link(name: string): void {
	const target = join(consumer, "node_modules", name);
	mkdirSync(join(target, ".."), { recursive: true });
	symlinkSync(join(ROOT, "node_modules", name), target);
}

beforeAll(() => {
	scratch = mkdtempSync(join(tmpdir(), "pi-fold-pack-"));
	const [info] = JSON.parse(npm(["pack", "--ignore-scripts", "--json", "--pack-destination", scratch], ROOT)) as {
		filename: string;
		files: { path: string }[];
	}[];
	packed = (info?.files ?? []).map((f) => f.path);
	consumer = join(scratch, "consumer");
	mkdirSync(consumer);
	const pkg = {
		name: "consumer",
		private: true,
		type: "module",
		dependencies: { zod: `file:${ROOT}/node_modules/zod` },
	};
	writeFileSync(join(consumer, "package.json"), JSON.stringify(pkg));
	npm(
		["install", "--offline", "--no-audit", "--no-fund", "--ignore-scripts", join(scratch, info?.filename ?? "")],
		consumer,
	);
	for (const name of ["@earendil-works", "typebox", "@types/node"]) link(name);
}, 120_000);

afterAll(() => {
	if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe("the packed package", () => {
	it("ships bundles, declarations and docs, and no TypeScript sources", () => {
		expect(packed).toEqual(expect.arrayContaining(["package.json", "README.md", "CHANGELOG.md", "LICENSE"]));
		for (const file of ["build/cli.js", "build/cli-hash.js", "build/verify.js", "build/extension.js"])
			expect(packed).toContain(file);
		expect(packed).toContain("build/types/index.d.ts");
		expect(packed).toContain("build/types/verify/index.d.ts");
		const stray = packed.filter(
			(p) => (p.endsWith(".ts") && !p.endsWith(".d.ts")) || /^(src|assembly|scripts|bench|tests)\//.test(p),
		);
		expect(stray).toEqual([]);
		expect(packed.filter((p) => /\.(wasm|wat|map)$/.test(p) || p === "build/meta.json")).toEqual([]);
	});

	it("runs its bin and its verifier from the install", () => {
		const bin = join(consumer, "node_modules", ".bin", "pi-fold");
		const version = spawnSync(process.execPath, [bin, "--version"], { encoding: "utf8" });
		expect(version.stdout).toMatch(/^pi-fold \d+\.\d+\.\d+\n$/);
		const hash = spawnSync(process.execPath, [bin, "hash"], { encoding: "utf8", input: "abc" });
		expect(hash.stdout).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  -\n");
		const script = 'import("pi-fold/verify").then((v) => console.log(v.sha256Hex("abc")))';
		const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: consumer, encoding: "utf8" });
		expect(run.stdout).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\n");
	});
});

const tsconfig = (file: string) => ({
	compilerOptions: {
		target: "ES2022",
		lib: ["ES2023"],
		module: "NodeNext",
		moduleResolution: "NodeNext",
		strict: true,
		noEmit: true,
		types: ["node"],
		skipLibCheck: false,
	},
	files: [file],
});

const VERIFY_CONSUMER = `import {
	hashFile,
	readVerifiedRange,
	sha256Hex,
	type VerifiedRange,
	type VerifyStoreResult,
	verifyStore,
	writeBlob,
} from "pi-fold/verify";

export async function check(dir: string): Promise<number> {
	const digest: string = sha256Hex(new Uint8Array([1, 2, 3]));
	const written = await writeBlob(dir, "hello", { chunkSize: 1024 });
	const store: VerifyStoreResult = await verifyStore(dir, { workers: 0, engine: "auto", mode: "tree" });
	const range: VerifiedRange = readVerifiedRange(dir, written.digest, 0, 64);
	const file: string = await hashFile("package.json");
	return store.blobs + range.bytes.length + digest.length + file.length;
}
`;

const EXTENSION_CONSUMER = `import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import piFold, { type PiFoldOptions, registerPiFold } from "pi-fold";

const options: PiFoldOptions = { foldScheduling: "epoch", toolName: "active_context" };

export function install(pi: ExtensionAPI): void {
	registerPiFold(pi, options);
	piFold(pi);
}
`;

/** tsc over one consumer file; returns its diagnostics (lines "file(line,col): error ..."). */
function typeCheck(name: string, source: string): { code: number; errors: string[] } {
	writeFileSync(join(consumer, `${name}.ts`), source);
	writeFileSync(join(consumer, `tsconfig.${name}.json`), JSON.stringify(tsconfig(`${name}.ts`)));
	const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
	const r = spawnSync(process.execPath, [tsc, "-p", `tsconfig.${name}.json`, "--pretty", "false"], {
		cwd: consumer,
		encoding: "utf8",
		timeout: 120_000,
	});
	return { code: r.status ?? -1, errors: r.stdout.split("\n").filter((l) => l.includes("error TS")) };
}

describe("a strict NodeNext consumer (skipLibCheck off)", () => {
	it("type-checks pi-fold/verify: hash bytes, verify a store, a bounded range, with zero errors", () => {
		expect(typeCheck("verify-consumer", VERIFY_CONSUMER)).toEqual({ code: 0, errors: [] });
	});

	it("type-checks the extension's public types with zero errors in pi-fold's declarations or its own code", () => {
		// Pi's own declarations do not compile under NodeNext with skipLibCheck off (JSON imports
		// without import attributes, DOM-only names); those are the host's, and are the only errors.
		const { errors } = typeCheck("extension-consumer", EXTENSION_CONSUMER);
		const ours = errors.filter((e) => !/node_modules\/(@earendil-works|@google)\//.test(e.replaceAll("\\", "/")));
		expect(ours).toEqual([]);
	});
});
