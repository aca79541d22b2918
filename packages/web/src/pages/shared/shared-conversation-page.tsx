export default function SharedConversationPage() {
  return (
    <main className="page">
      <h1>SharedConversationPage</h1>
    </main>
  );
}
