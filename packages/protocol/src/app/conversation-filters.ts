/** The filters of a search or count of the caller's app conversations, as query parameters. */
export interface AppConversationFilterQuery {
  title__contains?: string;
  created_at__gte?: string;
  created_at__lt?: string;
  updated_at__gte?: string;
  updated_at__lt?: string;
  sandbox_id__eq?: string;
}

/** The filters of a search or count of the caller's start tasks, as query parameters. */
export interface StartTaskFilterQuery {
  conversation_id__eq?: string;
  created_at__gte?: string;
}
