// What the screen calls the agent's pane: its client, as the person started it
// (`roz run codex` shows Codex's pane, and the hotkey leads back to "codex"),
// not always Claude. Before the launch says which client it is, Claude Code.
import { clientById, type ClientId } from '../core/clients.js';

/** The short name beside the hotkey (the status line, the tab bar): the client's command. */
export function paneName(client: ClientId | undefined): string {
  return client ?? 'claude';
}

/** The client as a sentence names it ("keys go to Codex CLI now"). */
export function paneLabel(client: ClientId | undefined): string {
  return clientById(client ?? 'claude').label;
}
