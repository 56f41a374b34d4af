/** The option names a command declares: its builder run against a recorder. */
import type { Argv } from "yargs";

export function declaredOptions(define: (y: Argv, setCode: (code: number) => void) => Argv): string[] {
  const names: string[] = [];
  const recorder: Argv = new Proxy({} as Argv, {
    get: (_target, method) => (...call: unknown[]) => {
      if (method === "option") names.push(call[0] as string);
      return recorder;
    },
  });
  const root = {
    command: (_cmd: string, _desc: string, builder: (y: Argv) => Argv): Argv => {
      builder(recorder);
      return root as unknown as Argv;
    },
  } as unknown as Argv;
  define(root, () => undefined);
  return names;
}
