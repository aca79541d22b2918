export default function ConversationPage() {
  return (
    <main className="page">
      <h1>ConversationPage</h1>
    </main>
  );
}
