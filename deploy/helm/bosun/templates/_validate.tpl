{{/* Values that contradict each other stop the render, naming the keys. Included once, by validate.yaml (which renders nothing). */}}
{{- define "bosun.validate" -}}
{{- include "bosun.requireHelm4" .Capabilities.HelmVersion.Version -}}
{{- $v := .Values -}}
{{- $rt := index $v "runtime-api" -}}
{{- if and $v.ingress.enabled (not $v.ingress.host) -}}
{{- fail "ingress.enabled is true but ingress.host is empty: set ingress.host (e.g. bosun.example.com) or ingress.enabled=false" -}}
{{- end -}}
{{- if not $v.postgresql.enabled -}}
{{- if or (not $v.externalDatabase.host) (not $v.externalDatabase.user) -}}
{{- fail "postgresql.enabled is false (an external database) but externalDatabase.host or externalDatabase.user is empty: set both" -}}
{{- end -}}
{{- end -}}
{{- if and $v.filestore.ephemeral (not $v.seaweedfs.enabled) -}}
{{- fail "filestore.ephemeral is true (the bundled object store) but seaweedfs.enabled is false: enable it or set filestore.ephemeral=false with an external filestore.bucket" -}}
{{- end -}}
{{- if and $v.github.enabled (not $v.keycloak.enabled) -}}
{{- fail "github.enabled is true but keycloak.enabled is false: GitHub login is brokered by the bundled Keycloak" -}}
{{- end -}}
{{- if and $v.keycloak.enabled (not $v.ingress.host) -}}
{{- fail "keycloak.enabled is true but ingress.host is empty: Keycloak is served at auth.<ingress.host>" -}}
{{- end -}}
{{- if and (index $rt "ingress" "enabled") (not (index $rt "ingress" "host")) -}}
{{- fail "runtime-api.ingress.enabled is true but runtime-api.ingress.host is empty" -}}
{{- end -}}
{{- if $rt.enabled -}}
{{- $pattern := trimSuffix "/" $v.env.RUNTIME_URL_PATTERN -}}
{{- $base := $rt.env.RUNTIME_BASE_URL -}}
{{- $sep := $rt.env.RUNTIME_URL_SEPARATOR -}}
{{- $noSsl := eq (toString $rt.env.RUNTIME_DISABLE_SSL) "true" -}}
{{- if not (contains "{runtime_id}" $pattern) -}}
{{- fail (printf "env.RUNTIME_URL_PATTERN %q has no {runtime_id}" $pattern) -}}
{{- end -}}
{{- if and (hasPrefix "https://" $pattern) $noSsl -}}
{{- fail (printf "env.RUNTIME_URL_PATTERN %q is https but runtime-api.env.RUNTIME_DISABLE_SSL is true (sandbox URLs would be http): set runtime-api.env.RUNTIME_DISABLE_SSL=false" $pattern) -}}
{{- end -}}
{{- $expected := printf "%s://{runtime_id}%s%s" (ternary "http" "https" $noSsl) $sep $base -}}
{{- if ne $pattern $expected -}}
{{- fail (printf "env.RUNTIME_URL_PATTERN %q is not under runtime-api.env.RUNTIME_BASE_URL %q (with RUNTIME_URL_SEPARATOR %q and RUNTIME_DISABLE_SSL=%v, sandboxes are at %s)" $pattern $base $sep $noSsl $expected) -}}
{{- end -}}
{{- if eq $rt.sandbox_namespace .Release.Namespace -}}
{{- fail (printf "runtime-api.sandbox_namespace %q is the release namespace: sandboxes need a namespace of their own" $rt.sandbox_namespace) -}}
{{- end -}}
{{- end -}}
{{- if and $v.litellm.enabled $v.env.LITELLM_DEFAULT_MODEL -}}
{{- $names := list -}}
{{- range $v.litellm.proxy_config.model_list -}}{{- $names = append $names .model_name -}}{{- end -}}
{{- if not (has $v.env.LITELLM_DEFAULT_MODEL $names) -}}
{{- fail (printf "env.LITELLM_DEFAULT_MODEL %q is not a model_name of litellm.proxy_config.model_list (%s)" $v.env.LITELLM_DEFAULT_MODEL (join ", " $names)) -}}
{{- end -}}
{{- end -}}
{{- if and $v.license.value $v.license.secretName -}}
{{- fail "license.value and license.secretName are both set: give the license one way (the file's content in license.value, or the Secret holding it in license.secretName)" -}}
{{- end -}}
{{- include "bosun.checkSecrets" . -}}
{{- end -}}

{{/*
The chart is made for and tested with Helm 4: an older Helm stops here, saying so, rather than somewhere less clear.
Given the version Helm reports (.Capabilities.HelmVersion.Version, e.g. v4.1.4).
*/}}
{{- define "bosun.requireHelm4" -}}
{{- if semverCompare "<4.0.0-0" . -}}
{{- fail (printf "the Bosun chart needs Helm 4 or later, and this is Helm %s: install Helm 4 (https://helm.sh/docs/intro/install/) and run the command again" .) -}}
{{- end -}}
{{- end -}}

{{/* Every secret the values need, with its keys: name -> keys. */}}
{{- define "bosun.requiredSecrets" -}}
{{- $v := .Values -}}
{{- $s := $v.secrets -}}
{{- $need := dict -}}
{{- $_ := set $need $s.jwt (list "jwt-secret") -}}
{{- if (index $v "runtime-api").enabled -}}
{{- $_ := set $need $s.sandboxApiKey (list "sandbox-api-key") -}}
{{- $_ := set $need $s.defaultApiKey (list "default-api-key") -}}
{{- end -}}
{{- $_ := set $need $s.postgres (ternary (list "username" "password" "postgres-password") (list "password") $v.postgresql.enabled) -}}
{{- if or $v.redis.enabled $v.externalRedis.host -}}{{- $_ := set $need $s.redis (list "redis-password") -}}{{- end -}}
{{- if $v.litellm.enabled -}}
{{- $_ := set $need $s.litellmApiKey (list "litellm-api-key") -}}
{{- $vars := list -}}
{{- range $v.litellm.proxy_config.model_list -}}{{- $key := toString (.litellm_params.api_key | default "") -}}{{- if hasPrefix "os.environ/" $key -}}{{- $vars = append $vars (trimPrefix "os.environ/" $key) -}}{{- end -}}{{- end -}}
{{- $_ := set $need $s.litellmEnv (uniq $vars) -}}
{{- end -}}
{{- if $v.keycloak.enabled -}}
{{- $_ := set $need $s.keycloakAdmin (list "admin-password") -}}
{{- $_ := set $need $s.keycloakRealm (list "realm-name" "server-url" "client-id" "client-secret" "smtp-password") -}}
{{- end -}}
{{- if $v.github.enabled -}}{{- $_ := set $need $s.githubApp (list "app-id" "app-slug" "client-id" "client-secret" "private-key" "webhook-secret") -}}{{- end -}}
{{- /* The bundled store's identity, or the external bucket's key: the app reads it either way. */ -}}
{{- $_ := set $need $s.objectStore (list "access-key-id" "secret-access-key") -}}
{{- toJson $need -}}
{{- end -}}

{{/*
At install and upgrade (a cluster to ask), every secret and key must exist: a missing one fails naming it. `helm
template` has no cluster (lookup answers nothing, not even the release namespace), so nothing is checked there.
*/}}
{{- define "bosun.checkSecrets" -}}
{{- if and .Values.secrets.check (lookup "v1" "Namespace" "" .Release.Namespace) -}}
{{- range $name, $keys := (include "bosun.requiredSecrets" . | fromJson) -}}
{{- $secret := lookup "v1" "Secret" $.Release.Namespace $name -}}
{{- if not $secret -}}
{{- fail (printf "secret %s is missing in namespace %s (keys: %s): create it before installing (README.md, Secrets)" $name $.Release.Namespace (join ", " $keys)) -}}
{{- end -}}
{{- range $keys -}}
{{- if not (hasKey ($secret.data | default dict) .) -}}
{{- fail (printf "secret %s in namespace %s has no key %s" $name $.Release.Namespace .) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- with .Values.license.secretName -}}
{{- $license := lookup "v1" "Secret" $.Release.Namespace . -}}
{{- if not $license -}}
{{- fail (printf "secret %s (license.secretName) is missing in namespace %s: create it from the license file (kubectl create secret generic %s --from-file=%s=LICENSE_FILE) or unset license.secretName" . $.Release.Namespace . $.Values.license.key) -}}
{{- end -}}
{{- if not (hasKey ($license.data | default dict) $.Values.license.key) -}}
{{- fail (printf "secret %s (license.secretName) in namespace %s has no key %s (license.key)" . $.Release.Namespace $.Values.license.key) -}}
{{- end -}}
{{- end -}}
{{- if (index .Values "runtime-api").enabled -}}
{{- $app := lookup "v1" "Secret" .Release.Namespace .Values.secrets.sandboxApiKey -}}
{{- $rt := lookup "v1" "Secret" .Release.Namespace .Values.secrets.defaultApiKey -}}
{{- if ne (index $app.data "sandbox-api-key") (index $rt.data "default-api-key") -}}
{{- fail (printf "secrets %s and %s differ: the app's key for the runtime API and the runtime API's key must be equal" .Values.secrets.sandboxApiKey .Values.secrets.defaultApiKey) -}}
{{- end -}}
{{- end -}}
{{- if .Values.keycloak.enabled -}}
{{- $realm := lookup "v1" "Secret" .Release.Namespace .Values.secrets.keycloakRealm -}}
{{- $serverUrl := index $realm.data "server-url" | b64dec | trimSuffix "/" -}}
{{- if ne $serverUrl (include "bosun.authUrl" .) -}}
{{- fail (printf "secret %s key server-url is %q but Keycloak is served at %s (keycloak.ingress.hostname, ingress.host): the app's issuer would not match its tokens" .Values.secrets.keycloakRealm $serverUrl (include "bosun.authUrl" .)) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}
