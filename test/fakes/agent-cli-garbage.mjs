#!/usr/bin/env node
// agent-cli-garbage.mjs: an agent CLI that never answers. It writes random bytes on stdout
// that never form a line (no LF), a few times a second, never reads stdin and stays up until
// it is killed; a line on stderr says what it is, like a CLI that crashed into a binary mode.
import { randomBytes } from "node:crypto";

process.stderr.write("agent-cli-garbage: writing binary data, not JSON lines\n");
const chunk = () => {
  const bytes = randomBytes(512);
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x0a) bytes[i] = 0x00;
  process.stdout.write(bytes);
};
chunk();
setInterval(chunk, 250);
