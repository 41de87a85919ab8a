// Echoing what a person typed back into an error message: quoted, and cut short so a long paste
// cannot flood the reply. (Secrets never get here: the parser refuses them before reading anything.)

const MAX_ECHO_LENGTH = 40;

export function echo(typed: string): string {
  const short = typed.length > MAX_ECHO_LENGTH ? `${typed.slice(0, MAX_ECHO_LENGTH)}…` : typed;
  return `"${short}"`;
}
