// Child process: loads the chain key from the agent directory at argv[2] and prints the problem it
// names (or "null"). Bundled and run as an unprivileged user by tests/runtime/chain-key.test.ts.

import { loadChainKey } from "../../../src/runtime/index.ts";

process.stdout.write(String(loadChainKey(process.argv[2] as string).problem));
