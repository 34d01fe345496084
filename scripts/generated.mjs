// Every generated file in the repository, one convention (`*.generated.ts`), and how to generate each
// one afresh into a folder of the caller's choice. scripts/check-generated.mjs renders them all into
// a temp folder and compares with the tree (read-only); scripts/build.mjs and the generators' own
// entry points are what write them.
//
//   file(s)                                    generator                          inputs
//   assembly/sha256-rounds.generated.ts,       scripts/gen-sha256-rounds.mjs      (none: pure)
//   assembly/sha256x4-rounds.generated.ts,
//   assembly/sha256x4-scheduled.generated.ts
//   assembly/tokens-costs.generated.ts         scripts/calibrate-tokens.mjs       fitted costs (recorded in the
//                                              (rendering: tokens-costs.mjs)      file; the DFA is derived)
//   src/wasm/core-wasm.generated.ts            scripts/build.mjs                  assembly/ compiled by asc
//                                              (rendering: embed-wasm.mjs)

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compileCore, wasmFile } from "./build-wasm.mjs";
import { EMBED_FILE, renderEmbed } from "./embed-wasm.mjs";
import { renderSha256Rounds } from "./gen-sha256-rounds.mjs";
import { parseTokenCosts, renderTokenCosts, TOKEN_COSTS_FILE } from "./tokens-costs.mjs";

/** The suffix every generated source file carries. */
export const GENERATED_SUFFIX = ".generated.ts";

/**
 * Generators: `render(root, scratch)` returns { relative path: text } for the files it owns, reading
 * only from `root` and writing only into `scratch` (an empty temp folder it may use).
 */
export const GENERATORS = [
	{
		name: "SHA-256 rounds",
		regenerate: "node scripts/gen-sha256-rounds.mjs",
		render: async () => renderSha256Rounds(),
	},
	{
		name: "token estimator tables",
		regenerate: "node scripts/calibrate-tokens.mjs --write (refit) or re-render after editing scripts/tokens-dfa.mjs",
		render: async (root) => ({
			[TOKEN_COSTS_FILE]: renderTokenCosts(parseTokenCosts(readFileSync(join(root, TOKEN_COSTS_FILE), "utf8"))),
		}),
	},
	{
		name: "embedded Wasm core",
		regenerate: "npm run build",
		render: async (root, scratch) => {
			await compileCore(root, scratch);
			const bytes = (target) => readFileSync(wasmFile(scratch, target));
			return { [EMBED_FILE]: renderEmbed(bytes("simd"), bytes("scalar")) };
		},
	},
];
