#!/usr/bin/env node
// agent-cli-silent.mjs: an agent CLI that never answers. It prints nothing, never reads
// stdin and stays up until it is killed (issue 9: the kit must not wait on it for minutes).
setInterval(() => {}, 60_000);
