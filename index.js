// pi-fold as Pi loads it (package.json "pi.extensions"): the prebuilt bundle in build/. This file is
// at the package root and named index.js because that is how Pi's start-up list names an extension
// by its package: an index file at the root of an npm or git package shows as "pi-fold", and one
// installed from a local checkout as the checkout's folder; any other file shows by its own name
// ("pi-fold:build/extension.js", or just "extension.js").
export { default, OptionsError, registerPiFold, resolveOptions } from "./build/extension.js";
