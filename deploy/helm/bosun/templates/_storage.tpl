{{/* A volume claim template (persistence: enabled, size, storageClass; empty class: the cluster's default). */}}
{{- define "bosun.claimTemplate" -}}
- metadata: {name: data}
  spec:
    accessModes: [ReadWriteOnce]
    {{- with .storageClass }}
    storageClassName: {{ . }}
    {{- end }}
    resources: {requests: {storage: {{ .size }}}}
{{- end -}}
