#!/bin/bash
# Brings the realm, the app's client and the GitHub identity provider to the chart's values, creating what is
# missing and updating what exists: safe to run after every install and upgrade.
set -euo pipefail
kc() { /opt/keycloak/bin/kcadm.sh "$@" --config /tmp/kcadm.config; }
secret() { cat "/var/run/secrets/$1"; }

realm=$(secret realm/realm-name)
client_id=$(secret realm/client-id)

until kc config credentials --server "$KEYCLOAK_URL" --realm master --user admin \
  --password "$(secret admin/admin-password)"; do
  echo "waiting for Keycloak at $KEYCLOAK_URL"
  sleep 5
done

kc get "realms/$realm" >/dev/null 2>&1 || kc create realms -s "realm=$realm" -s enabled=true
kc update "realms/$realm" -s enabled=true -s "smtpServer.password=$(secret realm/smtp-password)"

id=$(kc get clients -r "$realm" -q "clientId=$client_id" --fields id --format csv --noquotes)
if [ -z "$id" ]; then
  kc create clients -r "$realm" -s "clientId=$client_id" -s enabled=true
  id=$(kc get clients -r "$realm" -q "clientId=$client_id" --fields id --format csv --noquotes)
fi
# The redirect URI is the app's OpenID Connect callback (BOSUN_PUBLIC_URL + /api/v1/auth/callback).
kc update "clients/$id" -r "$realm" \
  -s publicClient=false -s standardFlowEnabled=true -s directAccessGrantsEnabled=false \
  -s "secret=$(secret realm/client-secret)" \
  -s "redirectUris=[\"$PUBLIC_URL/api/v1/auth/callback\"]" \
  -s "webOrigins=[\"$PUBLIC_URL\"]" \
  -s "attributes.\"post.logout.redirect.uris\"=$PUBLIC_URL/*"

if [ "$GITHUB_ENABLED" = "true" ]; then
  if ! kc get identity-provider/instances/github -r "$realm" >/dev/null 2>&1; then
    kc create identity-provider/instances -r "$realm" -s alias=github -s providerId=github -s enabled=true
  fi
  base=""
  [ "$GITHUB_HOST" != "github.com" ] && base="https://$GITHUB_HOST"
  # storeToken: the app reads the person's GitHub token through the broker (the read-token role below).
  kc update identity-provider/instances/github -r "$realm" -s enabled=true -s storeToken=true \
    -s addReadTokenRoleOnCreate=true -s trustEmail=true \
    -s "config.clientId=$(secret github/client-id)" -s "config.clientSecret=$(secret github/client-secret)" \
    -s "config.baseUrl=$base" -s "config.defaultScope=read:user user:email"
fi

# Every user may read their stored provider tokens: broker's read-token role in the realm's default roles.
kc add-roles -r "$realm" --rname "default-roles-$realm" --cclientid broker --rolename read-token
echo "realm $realm provisioned"
