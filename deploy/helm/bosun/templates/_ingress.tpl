{{/* One Ingress: dict root, component, host, service, port, tls (bool), secretName (optional). */}}
{{- define "bosun.ingress" -}}
{{- $c := dict "root" .root "component" .component -}}
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: {{ include "bosun.name" $c }}
  labels: {{- include "bosun.labels" $c | nindent 4 }}
  {{- with .root.Values.ingress.annotations }}
  annotations: {{- toYaml . | nindent 4 }}
  {{- end }}
spec:
  {{- with .root.Values.ingress.class }}
  ingressClassName: {{ . }}
  {{- end }}
  {{- if .tls }}
  tls:
    - hosts: [{{ .host | quote }}]
      secretName: {{ .secretName | default (printf "%s-tls" .host) }}
  {{- end }}
  rules:
    - host: {{ .host | quote }}
      http:
        paths:
          - path: /
            pathType: Prefix
            backend:
              service:
                name: {{ .service }}
                port: {number: {{ .port }}}
{{- end -}}
