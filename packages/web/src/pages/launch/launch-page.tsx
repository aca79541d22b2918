export default function LaunchPage() {
  return (
    <main className="page">
      <h1>LaunchPage</h1>
    </main>
  );
}
