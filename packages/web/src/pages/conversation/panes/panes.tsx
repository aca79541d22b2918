import type { AgentServerClient } from '@bosun/client';
import * as Tabs from '@radix-ui/react-tabs';
import { ChangesPane } from './changes.tsx';
import { FilesPane } from './files.tsx';

/** The workspace beside the conversation: its changes and its files. */
export function WorkspacePanes({
  conversationId,
  agentServer,
  workingDir,
  running,
  version,
}: {
  conversationId: string;
  agentServer: AgentServerClient | undefined;
  workingDir: string | undefined;
  running: boolean;
  version: number;
}) {
  return (
    <Tabs.Root defaultValue="changes" className="panes">
      <Tabs.List className="tabs-list" aria-label="Workspace">
        <Tabs.Trigger value="changes" className="tab">
          Changes
        </Tabs.Trigger>
        <Tabs.Trigger value="files" className="tab">
          Files
        </Tabs.Trigger>
      </Tabs.List>
      <Tabs.Content value="changes" className="pane-content">
        <ChangesPane conversationId={conversationId} version={version} running={running} />
      </Tabs.Content>
      <Tabs.Content value="files" className="pane-content">
        <FilesPane
          conversationId={conversationId}
          agentServer={agentServer}
          workingDir={workingDir}
          running={running}
        />
      </Tabs.Content>
    </Tabs.Root>
  );
}
