#!/usr/bin/env node
// The installed `kubeimg` command. It lives outside `dist/` so package
// managers can link it before the first build; the program is `dist/cli.js`.
import "../dist/cli.js";
