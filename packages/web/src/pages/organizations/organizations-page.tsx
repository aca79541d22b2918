export default function OrganizationsPage() {
  return (
    <main className="page">
      <h1>OrganizationsPage</h1>
    </main>
  );
}
