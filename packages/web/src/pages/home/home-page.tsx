export default function HomePage() {
  return (
    <main className="page">
      <h1>HomePage</h1>
    </main>
  );
}
