import { useSettings } from '../../api/queries.ts';
import { ConversationList } from './conversation-list.tsx';
import { LlmNotice } from './llm-notice.tsx';
import { StartForm } from './start-form.tsx';
import { StartTasks } from './start-tasks.tsx';
import './home.css';

/** The home page: start a conversation (with a repository), the starts in progress, then the conversations. */
export default function HomePage() {
  const settings = useSettings();
  return (
    <main className="page home">
      <LlmNotice settings={settings.data} />
      <StartForm settings={settings.data} />
      <StartTasks />
      <ConversationList />
    </main>
  );
}
