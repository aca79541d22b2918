{{/* Names, labels and images shared by every template. */}}
{{- define "bosun.fullname" -}}
{{- if .Values.fullnameOverride -}}{{- .Values.fullnameOverride | trunc 40 | trimSuffix "-" -}}
{{- else -}}{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}{{- printf "%s-%s" .Release.Name $name | trunc 40 | trimSuffix "-" -}}{{- end -}}
{{- end -}}
{{- end -}}

{{/* The name of a component's objects: bosun.name (dict "root" $ "component" "redis"). */}}
{{- define "bosun.name" -}}
{{- if eq .component "app" -}}{{ include "bosun.fullname" .root }}{{- else -}}{{ printf "%s-%s" (include "bosun.fullname" .root) .component }}{{- end -}}
{{- end -}}

{{- define "bosun.selectorLabels" -}}
app.kubernetes.io/name: {{ .root.Chart.Name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "bosun.labels" -}}
{{ include "bosun.selectorLabels" . }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version }}
{{- end -}}

{{/* repository:tag, or repository@digest when a digest is given. */}}
{{- define "bosun.imageRef" -}}
{{- if .digest -}}{{ printf "%s@%s" .repository .digest }}{{- else -}}{{ printf "%s:%s" .repository .tag }}{{- end -}}
{{- end -}}

{{- define "bosun.image" -}}
{{- $tag := default .Chart.AppVersion .Values.image.tag -}}
{{ include "bosun.imageRef" (dict "repository" .Values.image.repository "tag" $tag "digest" .Values.image.digest) }}
{{- end -}}

{{/* Non-root, no privilege escalation, no capabilities, read-only root (the pod level and the container level). */}}
{{- define "bosun.podSecurity" -}}
runAsNonRoot: true
runAsUser: {{ .uid | default 10001 }}
runAsGroup: {{ .uid | default 10001 }}
fsGroup: {{ .uid | default 10001 }}
seccompProfile: {type: RuntimeDefault}
{{- end -}}

{{- define "bosun.containerSecurity" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: {{ .readOnly | default false }}
capabilities: {drop: [ALL]}
{{- end -}}

{{- define "bosun.scheme" -}}
{{- if .Values.publicUrlScheme -}}{{ .Values.publicUrlScheme }}{{- else if .Values.tls.enabled -}}https{{- else -}}http{{- end -}}
{{- end -}}

{{- define "bosun.publicUrl" -}}
{{ include "bosun.scheme" . }}://{{ .Values.ingress.host }}
{{- end -}}

{{- define "bosun.authHost" -}}
{{- default (printf "auth.%s" .Values.ingress.host) .Values.keycloak.ingress.hostname -}}
{{- end -}}

{{- define "bosun.authUrl" -}}
{{- if or .Values.keycloak.ingress.tls .Values.tls.enabled (eq .Values.publicUrlScheme "https") -}}https{{- else -}}http{{- end -}}://{{ include "bosun.authHost" . }}
{{- end -}}

{{/* The database server the app and the runtime API use. */}}
{{- define "bosun.dbHost" -}}
{{- if .Values.postgresql.enabled -}}{{ include "bosun.name" (dict "root" . "component" "postgresql") }}{{- else -}}{{ .Values.externalDatabase.host }}{{- end -}}
{{- end -}}
{{- define "bosun.dbPort" -}}
{{- if .Values.postgresql.enabled -}}5432{{- else -}}{{ .Values.externalDatabase.port }}{{- end -}}
{{- end -}}
{{- define "bosun.dbSslMode" -}}
{{- if .Values.postgresql.enabled -}}disable{{- else -}}{{ .Values.externalDatabase.sslMode }}{{- end -}}
{{- end -}}

{{/*
Environment giving BOSUN_DATABASE_URL from the database secret (the app has no *_FILE form of database_url, so the
password reaches the URL through Kubernetes' $(VAR) expansion, never through the values). dict root, database.
*/}}
{{- define "bosun.databaseEnv" -}}
{{- $root := .root -}}
- name: DATABASE_USER
{{- if $root.Values.postgresql.enabled }}
  valueFrom: {secretKeyRef: {name: {{ $root.Values.secrets.postgres }}, key: username}}
{{- else }}
  value: {{ $root.Values.externalDatabase.user | quote }}
{{- end }}
- name: DATABASE_PASSWORD
  valueFrom: {secretKeyRef: {name: {{ $root.Values.secrets.postgres }}, key: password}}
- name: BOSUN_DATABASE_URL
  value: {{ printf "postgres://$(DATABASE_USER):$(DATABASE_PASSWORD)@%s:%v/%s?sslmode=%s" (include "bosun.dbHost" $root) (include "bosun.dbPort" $root) .database (include "bosun.dbSslMode" $root) | quote }}
{{- end -}}

{{- define "bosun.redisEnv" -}}
{{- if .Values.redis.enabled }}
- name: REDIS_PASSWORD
  valueFrom: {secretKeyRef: {name: {{ .Values.secrets.redis }}, key: redis-password}}
- name: BOSUN_REDIS_URL
  value: {{ printf "redis://:$(REDIS_PASSWORD)@%s:6379" (include "bosun.name" (dict "root" . "component" "redis")) | quote }}
{{- else if .Values.externalRedis.host }}
- name: REDIS_PASSWORD
  valueFrom: {secretKeyRef: {name: {{ .Values.secrets.redis }}, key: redis-password}}
- name: BOSUN_REDIS_URL
  value: {{ printf "%s://:$(REDIS_PASSWORD)@%s:%v" (ternary "rediss" "redis" .Values.externalRedis.tls) .Values.externalRedis.host .Values.externalRedis.port | quote }}
{{- end }}
{{- end -}}

{{- define "bosun.litellmUrl" -}}
http://{{ include "bosun.name" (dict "root" . "component" "litellm") }}.{{ .Release.Namespace }}.svc.cluster.local:4000
{{- end -}}

{{- define "bosun.runtimeApiUrl" -}}
{{- if .Values.sandbox.apiHostname -}}{{ .Values.sandbox.apiHostname }}{{- else -}}http://{{ include "bosun.name" (dict "root" . "component" "runtime-api") }}.{{ .Release.Namespace }}.svc.cluster.local:5000{{- end -}}
{{- end -}}
