{{/* The app's settings: BOSUN_* variables, secrets as files (BOSUN_<KEY>_FILE) under /var/run/secrets/bosun. */}}
{{- define "bosun.app.env" -}}
- {name: BOSUN_DATA_DIR, value: /var/lib/bosun}
- {name: BOSUN_LOG_LEVEL, value: {{ .Values.logLevel | quote }}}
- {name: BOSUN_PUBLIC_URL, value: {{ include "bosun.publicUrl" . | quote }}}
- {name: BOSUN_CREATE_DATABASES, value: {{ .Values.databaseMigrations.createDatabases | toString | quote }}}
{{ include "bosun.databaseEnv" (dict "root" . "database" (ternary .Values.postgresql.auth.database .Values.externalDatabase.database .Values.postgresql.enabled)) }}
{{- include "bosun.redisEnv" . }}
- {name: BOSUN_JWT_SECRET_FILE, value: /var/run/secrets/bosun/jwt-secret}
- {name: BOSUN_S3_BUCKET, value: {{ .Values.filestore.bucket | quote }}}
{{- if .Values.filestore.ephemeral }}
- {name: BOSUN_S3_ENDPOINT, value: {{ printf "http://%s:8333" (include "bosun.name" (dict "root" . "component" "seaweedfs")) | quote }}}
{{- else if .Values.filestore.endpoint }}
- {name: BOSUN_S3_ENDPOINT, value: {{ .Values.filestore.endpoint | quote }}}
{{- end }}
- {name: BOSUN_S3_REGION, value: {{ .Values.filestore.region | quote }}}
- name: BOSUN_S3_ACCESS_KEY_ID
  valueFrom: {secretKeyRef: {name: {{ .Values.secrets.objectStore }}, key: access-key-id}}
- {name: BOSUN_S3_SECRET_ACCESS_KEY_FILE, value: /var/run/secrets/bosun/s3-secret-access-key}
{{- if index .Values "runtime-api" "enabled" }}
- {name: BOSUN_RUNTIME_API_URL, value: {{ include "bosun.runtimeApiUrl" . | quote }}}
- {name: BOSUN_RUNTIME_API_KEY_FILE, value: /var/run/secrets/bosun/sandbox-api-key}
- {name: BOSUN_SANDBOX_NETWORK, value: {{ .Values.sandboxNetwork | quote }}}
{{- end }}
{{- if .Values.litellm.enabled }}
- {name: BOSUN_LLM_BASE_URL, value: {{ printf "%s/v1" (include "bosun.litellmUrl" .) | quote }}}
- {name: BOSUN_LLM_API_KEY_FILE, value: /var/run/secrets/bosun/litellm-api-key}
{{- with .Values.env.LITELLM_DEFAULT_MODEL }}
- {name: BOSUN_LLM_MODEL, value: {{ . | quote }}}
{{- end }}
{{- end }}
{{- if .Values.keycloak.enabled }}
- name: KEYCLOAK_REALM
  valueFrom: {secretKeyRef: {name: {{ .Values.secrets.keycloakRealm }}, key: realm-name}}
- name: KEYCLOAK_SERVER_URL
  valueFrom: {secretKeyRef: {name: {{ .Values.secrets.keycloakRealm }}, key: server-url}}
- {name: BOSUN_OIDC_ISSUER_URL, value: "$(KEYCLOAK_SERVER_URL)/realms/$(KEYCLOAK_REALM)"}
- name: BOSUN_OIDC_CLIENT_ID
  valueFrom: {secretKeyRef: {name: {{ .Values.secrets.keycloakRealm }}, key: client-id}}
- {name: BOSUN_OIDC_CLIENT_SECRET_FILE, value: /var/run/secrets/bosun/oidc-client-secret}
{{- if .Values.github.enabled }}
- {name: BOSUN_OIDC_PROVIDERS, value: github}
- {name: BOSUN_GIT_GITHUB_URL, value: {{ printf "https://%s" .Values.github.host | quote }}}
- name: BOSUN_GIT_GITHUB_APP_CLIENT_ID
  valueFrom: {secretKeyRef: {name: {{ .Values.secrets.githubApp }}, key: client-id}}
- {name: BOSUN_GIT_GITHUB_APP_CLIENT_SECRET_FILE, value: /var/run/secrets/bosun/github-client-secret}
{{- /* The app itself: its JWTs mint installation tokens (organization skills repositories), its webhook is verified. */}}
- name: BOSUN_GIT_GITHUB_APP_ID
  valueFrom: {secretKeyRef: {name: {{ .Values.secrets.githubApp }}, key: app-id}}
- name: BOSUN_GIT_GITHUB_APP_SLUG
  valueFrom: {secretKeyRef: {name: {{ .Values.secrets.githubApp }}, key: app-slug}}
- {name: BOSUN_GIT_GITHUB_APP_PRIVATE_KEY_FILE, value: /var/run/secrets/bosun/github-private-key}
- {name: BOSUN_GIT_GITHUB_APP_WEBHOOK_SECRET_FILE, value: /var/run/secrets/bosun/github-webhook-secret}
{{- end }}
{{- end }}
{{- if or .Values.license.value .Values.license.secretName }}
- {name: BOSUN_LICENSE_FILE, value: /var/run/secrets/bosun/license}
{{- end }}
{{- range $name, $value := .Values.extraEnv }}
- {name: {{ $name }}, value: {{ $value | toString | quote }}}
{{- end }}
{{- end -}}

{{- define "bosun.app.mounts" -}}
- {name: data, mountPath: /var/lib/bosun}
- {name: tmp, mountPath: /tmp}
- {name: secrets, mountPath: /var/run/secrets/bosun, readOnly: true}
{{- end -}}

{{/* Each secret key the app reads, as a file of the projected volume (a missing secret or key: the pod waits, naming it). */}}
{{- define "bosun.app.secretFiles" -}}
- secret: {name: {{ .Values.secrets.jwt }}, items: [{key: jwt-secret, path: jwt-secret}]}
- secret: {name: {{ .Values.secrets.objectStore }}, items: [{key: secret-access-key, path: s3-secret-access-key}]}
{{- if index .Values "runtime-api" "enabled" }}
- secret: {name: {{ .Values.secrets.sandboxApiKey }}, items: [{key: sandbox-api-key, path: sandbox-api-key}]}
{{- end }}
{{- if .Values.litellm.enabled }}
- secret: {name: {{ .Values.secrets.litellmApiKey }}, items: [{key: litellm-api-key, path: litellm-api-key}]}
{{- end }}
{{- if .Values.keycloak.enabled }}
- secret: {name: {{ .Values.secrets.keycloakRealm }}, items: [{key: client-secret, path: oidc-client-secret}]}
{{- end }}
{{- if .Values.github.enabled }}
- secret:
    name: {{ .Values.secrets.githubApp }}
    items:
    - {key: client-secret, path: github-client-secret}
    - {key: private-key, path: github-private-key}
    - {key: webhook-secret, path: github-webhook-secret}
{{- end }}
{{- if .Values.license.value }}
- secret: {name: {{ include "bosun.name" (dict "root" . "component" "license") }}, items: [{key: license, path: license}]}
{{- else if .Values.license.secretName }}
- secret: {name: {{ .Values.license.secretName }}, items: [{key: {{ .Values.license.key | quote }}, path: license}]}
{{- end }}
{{- end -}}
