// lines.mjs: split stdin into lines as they arrive.
//
// Input is JSON Lines: one message per "\n"-terminated line ("\r\n" is
// tolerated). Lines are handed over the moment they are complete, so a
// shutdown line can be seen even while an earlier turn is still running.
// A last line without "\n" still counts when stdin ends.
//
// A line can be large (the Desktop inlines attachments up to 25 MiB as
// base64) and arrives in many chunks. Pieces are collected and joined once,
// so a long line costs linear time, not one rescan per chunk. A line longer
// than MAX_LINE_CHARS is not kept in memory: its characters are dropped up to
// the next "\n" and it is reported once through onOversize().

export const MAX_LINE_CHARS = 128 * 1024 * 1024;

export function readLines(stream, { onLine, onOversize, onEnd }) {
  stream.setEncoding("utf8"); // decodes UTF-8 across chunk boundaries
  let pieces = [];
  let size = 0;
  let skipping = false; // inside an oversized line

  function finishLine() {
    if (skipping) onOversize();
    else {
      const line = pieces.join("");
      onLine(line.endsWith("\r") ? line.slice(0, -1) : line);
    }
    pieces = [];
    size = 0;
    skipping = false;
  }

  function keep(piece) {
    if (skipping || piece === "") return;
    size += piece.length;
    if (size > MAX_LINE_CHARS) {
      skipping = true;
      pieces = [];
    } else pieces.push(piece);
  }

  stream.on("data", (chunk) => {
    let start = 0;
    for (let nl = chunk.indexOf("\n"); nl !== -1; nl = chunk.indexOf("\n", start)) {
      keep(chunk.slice(start, nl));
      finishLine();
      start = nl + 1;
    }
    keep(chunk.slice(start));
  });

  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    if (size > 0 || skipping) finishLine();
    onEnd();
  };
  stream.on("end", end);
  // A broken stdin means no more input, like an ordinary end.
  stream.on("error", end);
}
