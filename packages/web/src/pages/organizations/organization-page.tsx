export default function OrganizationPage() {
  return (
    <main className="page">
      <h1>OrganizationPage</h1>
    </main>
  );
}
