export default function PluginsPage() {
  return (
    <main className="page">
      <h1>PluginsPage</h1>
    </main>
  );
}
