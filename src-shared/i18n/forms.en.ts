/** The `forms.*` section of the catalogue (see en.ts); forms.zh-CN.ts has the same keys and placeholders. */
export const formsEn = {
  /**
   * What is wrong with a value of a server's form (elicitation), from the core's code and data (see forms.words.ts):
   * `{{field}}` is the field's title.
   */
  problem: {
    required: '{{field}} is required',
    notAField: '{{field}} is not a field of this form',
    notText: '{{field}} must be text',
    notAChoice: '{{field}} must be one of {{choices}}',
    empty: '{{field}} must not be empty',
    tooShort: '{{field}} must be at least {{min}} characters',
    tooLong: '{{field}} must be at most {{max}} characters',
    notEmail: '{{field}} must be an email address (name@example.com)',
    notUri: '{{field}} must be a URI (e.g. https://example.com/)',
    notDate: '{{field}} must be a date (YYYY-MM-DD)',
    notDateTime: '{{field}} must be a date and time (e.g. 2026-01-31T12:00:00Z)',
    notNumber: '{{field}} must be a number',
    notWhole: '{{field}} must be a whole number',
    tooSmall: '{{field}} must be at least {{min}}',
    tooLarge: '{{field}} must be at most {{max}}',
    notBoolean: '{{field}} must be true or false',
    yesOrNo: '{{field}}: answer yes or no',
    notAList: '{{field}} must be a list of choices',
    unknownChoices: '{{field}} has {{unknown}}, not among {{choices}}',
    repeatedChoice: '{{field}} names a choice twice',
    tooFewChoices_one: '{{field}} needs at least {{count}} choice',
    tooFewChoices_other: '{{field}} needs at least {{count}} choices',
    tooManyChoices_one: '{{field}} allows at most {{count}} choice',
    tooManyChoices_other: '{{field}} allows at most {{count}} choices',
  },
  /** Between two problems on one line. */
  separator: '; ',
  /** A value the CLI's prompt refuses, on its own line before the field is asked again. */
  refused: '{{problem}}.',
  /** The last answer to a form, refused by the host: the form is asked again. */
  notAccepted: 'Not accepted: {{problems}}.',
  /** Why the request queue settled a request itself (a code and data), and the app's own answers. */
  reason: {
    timedOutMs: 'timed out after {{ms}} ms with no answer',
    timedOutSeconds_one: 'timed out after {{count}} s with no answer',
    timedOutSeconds_other: 'timed out after {{count}} s with no answer',
    withdrawn: 'withdrawn by the asker',
    shuttingDown: 'Switchboard is shutting down',
    noAnswerer: 'no one is there to answer',
    serverGone: '{{server}} stopped or went away',
    declinedByUser: 'declined by the user',
    dismissedByUser: 'dismissed by the user',
    deniedByUser: 'denied by the user',
  },
  /** Between a settled card's heading and how the request ended. */
  afterTitle: ': ',
  /** A request card's heading, from its kind (the host's title is English): `<strong>` the server, `<muted>` the rest. */
  title: {
    sampling: '<strong>{{server}}</strong><muted> asks to run a model</muted>',
    samplingResult: "<muted>The model's answer for </muted><strong>{{server}}</strong>",
    form: '<strong>{{server}}</strong><muted> asks you to fill in a form</muted>',
    link: '<strong>{{server}}</strong><muted> asks you to open a page on {{host}}</muted>',
    toolApproval: '<muted>The model asks to run </muted><strong>{{server}}</strong><muted> › {{tool}}</muted>',
  },
};
