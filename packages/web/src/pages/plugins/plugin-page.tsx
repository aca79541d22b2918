export default function PluginPage() {
  return (
    <main className="page">
      <h1>PluginPage</h1>
    </main>
  );
}
