{{/* The Kubernetes backend's settings (BOSUN_KUBERNETES, checked by the runtime API at start). */}}
{{- define "bosun.runtimeApi.kubernetes" -}}
{{- $rt := index .Values "runtime-api" -}}
{{- $releaseLabels := dict "app.kubernetes.io/name" .Chart.Name "app.kubernetes.io/instance" .Release.Name -}}
{{- $egress := list (dict "namespace" .Release.Namespace "pod_labels" (merge (dict "app.kubernetes.io/component" "app") $releaseLabels) "ports" (list 3000)) -}}
{{- if .Values.litellm.enabled -}}
{{- $egress = append $egress (dict "namespace" .Release.Namespace "pod_labels" (merge (dict "app.kubernetes.io/component" "litellm") $releaseLabels) "ports" (list 4000)) -}}
{{- end -}}
{{- $settings := dict
  "namespace" $rt.sandbox_namespace
  "app_namespace" .Release.Namespace
  "image" (include "bosun.image" .)
  "image_pull_policy" .Values.image.pullPolicy
  "runtime_base_url" $rt.env.RUNTIME_BASE_URL
  "runtime_url_separator" $rt.env.RUNTIME_URL_SEPARATOR
  "runtime_url_pattern" .Values.env.RUNTIME_URL_PATTERN
  "runtime_disable_ssl" (eq (toString $rt.env.RUNTIME_DISABLE_SSL) "true")
  "ingress_annotations" $rt.sandboxIngressAnnotations
  "storage_size" $rt.env.PERSISTENT_STORAGE_SIZE
  "egress" $egress
  "ingress_from" (list (dict "namespace" $rt.ingressControllerNamespace))
-}}
{{- with .Values.ingress.class }}{{- $_ := set $settings "ingress_class" . -}}{{- end -}}
{{- with $rt.env.STORAGE_CLASS }}{{- $_ := set $settings "storage_class" . -}}{{- end -}}
{{- with $rt.sandboxTlsSecret }}{{- $_ := set $settings "ingress_tls_secret" . -}}{{- end -}}
{{- toJson $settings -}}
{{- end -}}
