# The WhatsApp Web session worker (functions/workers/wa-web-session.ts), built by CDK from the repo
# root (infra/stacks/wa-web-stack.ts). Baileys' two GitHub-hosted dependencies are replaced by
# registry packages through package.json `overrides`, so `npm ci` needs only the npm registry.
FROM public.ecr.aws/docker/library/node:20-slim
WORKDIR /app
ENV NODE_ENV=production AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=true
COPY package.json package-lock.json tsconfig.json ./
# dev dependencies included: the worker runs its TypeScript through tsx, like the local runtime
RUN npm ci --ignore-scripts && npm cache clean --force
COPY shared ./shared
COPY events ./events
COPY functions ./functions
USER node
CMD ["node", "--import", "tsx", "functions/workers/wa-web-session.ts"]
