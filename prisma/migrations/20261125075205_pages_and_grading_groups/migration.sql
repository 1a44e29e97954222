-- CreateTable
CREATE TABLE "grading_groups" (
    "id" SERIAL NOT NULL,
    "sectionId" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "grading_groups_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "grading_group_members" (
    "gradingGroupId" INTEGER NOT NULL,
    "enrollmentId" INTEGER NOT NULL,

    CONSTRAINT "grading_group_members_pkey" PRIMARY KEY ("gradingGroupId","enrollmentId")
);

-- CreateTable
CREATE TABLE "pages" (
    "id" SERIAL NOT NULL,
    "realmType" "RealmType" NOT NULL,
    "realmId" INTEGER NOT NULL,
    "authorId" INTEGER,
    "title" TEXT NOT NULL,
    "body" TEXT NOT NULL DEFAULT '',
    "published" BOOLEAN NOT NULL DEFAULT true,
    "inline" BOOLEAN NOT NULL DEFAULT false,
    "parentId" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "pages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "page_assignees" (
    "pageId" INTEGER NOT NULL,
    "enrollmentId" INTEGER NOT NULL,

    CONSTRAINT "page_assignees_pkey" PRIMARY KEY ("pageId","enrollmentId")
);

-- CreateTable
CREATE TABLE "page_grading_groups" (
    "pageId" INTEGER NOT NULL,
    "gradingGroupId" INTEGER NOT NULL,

    CONSTRAINT "page_grading_groups_pkey" PRIMARY KEY ("pageId","gradingGroupId")
);

-- CreateIndex
CREATE INDEX "grading_groups_sectionId_idx" ON "grading_groups"("sectionId");

-- CreateIndex
CREATE INDEX "grading_group_members_enrollmentId_idx" ON "grading_group_members"("enrollmentId");

-- CreateIndex
CREATE INDEX "pages_realmType_realmId_id_idx" ON "pages"("realmType", "realmId", "id");

-- CreateIndex
CREATE INDEX "pages_parentId_idx" ON "pages"("parentId");

-- CreateIndex
CREATE INDEX "page_assignees_enrollmentId_idx" ON "page_assignees"("enrollmentId");

-- CreateIndex
CREATE INDEX "page_grading_groups_gradingGroupId_idx" ON "page_grading_groups"("gradingGroupId");

-- AddForeignKey
ALTER TABLE "grading_groups" ADD CONSTRAINT "grading_groups_sectionId_fkey" FOREIGN KEY ("sectionId") REFERENCES "sections"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "grading_group_members" ADD CONSTRAINT "grading_group_members_gradingGroupId_fkey" FOREIGN KEY ("gradingGroupId") REFERENCES "grading_groups"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "grading_group_members" ADD CONSTRAINT "grading_group_members_enrollmentId_fkey" FOREIGN KEY ("enrollmentId") REFERENCES "enrollments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "pages" ADD CONSTRAINT "pages_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "pages"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "page_assignees" ADD CONSTRAINT "page_assignees_pageId_fkey" FOREIGN KEY ("pageId") REFERENCES "pages"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "page_assignees" ADD CONSTRAINT "page_assignees_enrollmentId_fkey" FOREIGN KEY ("enrollmentId") REFERENCES "enrollments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "page_grading_groups" ADD CONSTRAINT "page_grading_groups_pageId_fkey" FOREIGN KEY ("pageId") REFERENCES "pages"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "page_grading_groups" ADD CONSTRAINT "page_grading_groups_gradingGroupId_fkey" FOREIGN KEY ("gradingGroupId") REFERENCES "grading_groups"("id") ON DELETE CASCADE ON UPDATE CASCADE;
