/**
 * Text for the terminal. What the CLI prints to stderr can hold server values (zone names, error
 * messages); a control character in them could move the cursor, clear the screen or start a new line
 * that looks like one of our `pulumi config set` commands. They are shown escaped instead (`\u001b`),
 * by the one rule every message of the package follows (api/terminalText.ts).
 */
export { preview, printable } from "../api/terminalText";
