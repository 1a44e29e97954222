-- CreateEnum
CREATE TYPE "SubjectArea" AS ENUM ('OTHER', 'HEALTH_PHYSICAL_EDUCATION', 'LANGUAGE_ARTS', 'MATHEMATICS', 'PROFESSIONAL_DEVELOPMENT', 'SCIENCE', 'SOCIAL_STUDIES', 'SPECIAL_EDUCATION', 'TECHNOLOGY', 'ARTS');

-- CreateEnum
CREATE TYPE "GradeLevel" AS ENUM ('PRE_K', 'KINDERGARTEN', 'GRADE_1', 'GRADE_2', 'GRADE_3', 'GRADE_4', 'GRADE_5', 'GRADE_6', 'GRADE_7', 'GRADE_8', 'GRADE_9', 'GRADE_10', 'GRADE_11', 'GRADE_12', 'HIGHER_ED');

-- CreateEnum
CREATE TYPE "Weekday" AS ENUM ('SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY');

-- AlterTable
ALTER TABLE "courses" ADD COLUMN     "credits" DOUBLE PRECISION,
ADD COLUMN     "department" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "description" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "gradeLevelRangeEnd" "GradeLevel",
ADD COLUMN     "gradeLevelRangeStart" "GradeLevel",
ADD COLUMN     "subjectArea" "SubjectArea";

-- AlterTable
ALTER TABLE "sections" ADD COLUMN     "active" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "codeSchoolId" INTEGER,
ADD COLUMN     "description" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "location" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "meetingDays" "Weekday"[] DEFAULT ARRAY[]::"Weekday"[],
ADD COLUMN     "sectionSchoolCode" TEXT;

-- CreateTable
CREATE TABLE "_GradingPeriodToSection" (
    "A" INTEGER NOT NULL,
    "B" INTEGER NOT NULL,

    CONSTRAINT "_GradingPeriodToSection_AB_pkey" PRIMARY KEY ("A","B")
);

-- CreateIndex
CREATE INDEX "_GradingPeriodToSection_B_index" ON "_GradingPeriodToSection"("B");

-- CreateIndex
CREATE UNIQUE INDEX "sections_codeSchoolId_sectionSchoolCode_key" ON "sections"("codeSchoolId", "sectionSchoolCode");

-- AddForeignKey
ALTER TABLE "_GradingPeriodToSection" ADD CONSTRAINT "_GradingPeriodToSection_A_fkey" FOREIGN KEY ("A") REFERENCES "grading_periods"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "_GradingPeriodToSection" ADD CONSTRAINT "_GradingPeriodToSection_B_fkey" FOREIGN KEY ("B") REFERENCES "sections"("id") ON DELETE CASCADE ON UPDATE CASCADE;
